import type { z } from "zod";
import { AppError } from "./app-error.ts";

/**
 * The HTTP exchange with a partner's credential vending service (the `cvs` auditor method),
 * shared by the AWS and Azure collectors: a JSON POST with `Authorization: Bearer <token>`,
 * answered `200` with a JSON body (see the README's `cvs` section).
 *
 * What is sent and how an answer reads are decided here, without I/O; the POST itself is made
 * by `callVendingService` in `@sightline/aws` and `@sightline/azure`, each beside its
 * credential code.
 */
export interface VendingServiceCall<T> {
  /** Checked by `vendingServiceUrl`. */
  readonly url: URL;
  /** Sightline's bearer token for that service. */
  readonly token: string;
  readonly body: unknown;
  /** What a `200` answer must hold. */
  readonly schema: z.ZodType<T>;
  /** Default 15 s (`VENDING_SERVICE_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
  /** Words for the error messages: what a 404 lacks, what a malformed answer was. */
  readonly wording: { notFound: string; malformed: string; context?: string };
}

/** How long a call waits for the answer unless `timeoutMs` says otherwise. */
export const VENDING_SERVICE_TIMEOUT_MS = 15_000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const MAX_QUOTED_MESSAGE = 200;

/** The vending service's URL, refused unless HTTPS (or HTTP on loopback). */
export function vendingServiceUrl(raw: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const secure =
    url?.protocol === "https:" || (url?.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  if (!url || !secure)
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      "The credential vending URL must be an https:// URL (plain http only on loopback)",
      { retryable: false },
    );
  return url;
}

/** The request a call sends, all but its timeout signal: a JSON POST that follows no redirect. */
export function vendingServiceRequest(call: VendingServiceCall<unknown>): {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  redirect: "error";
} {
  return {
    method: "POST",
    headers: {
      authorization: `Bearer ${call.token}`,
      "content-type": "application/json",
      accept: "application/json",
    },
    body: JSON.stringify(call.body),
    redirect: "error",
  };
}

/** The error for a service that did not answer (refused connection, timeout, redirect, …). */
export function vendingServiceUnreachable(url: URL, error: unknown): AppError {
  return new AppError(
    "CREDENTIAL_VENDING_FAILED",
    `The credential vending service at ${url.origin} did not answer (${(error as Error).name})`,
    { cause: error },
  );
}

/**
 * Reads an answer: its parsed data for a `2xx` status with a body the schema accepts, else throws
 * `CREDENTIAL_VENDING_FAILED` (retryable for 429 and 5xx). `body` is the answer's JSON, or
 * `undefined` when it was none.
 */
export function vendingServiceAnswer<T>(
  call: VendingServiceCall<T>,
  status: number,
  body: unknown,
): T {
  const { url } = call;
  if (status < 200 || status > 299) throw refusal(status, body, url, call.wording);
  const parsed = call.schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "body";
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      `The credential vending service at ${url.origin} answered ${call.wording.malformed}: ${where} ${issue?.message ?? "is invalid"}`,
      { retryable: false },
    );
  }
  return parsed.data;
}

function refusal(
  status: number,
  body: unknown,
  url: URL,
  wording: VendingServiceCall<unknown>["wording"],
): AppError {
  const message = (body as { message?: unknown } | undefined)?.message;
  const quoted = typeof message === "string" ? `: ${message.slice(0, MAX_QUOTED_MESSAGE)}` : "";
  const retryable = status === 429 || status >= 500;
  const reason =
    status === 401 || status === 403
      ? "refused Sightline's token"
      : status === 404
        ? `has no ${wording.notFound}`
        : retryable
          ? "is unavailable"
          : "rejected the request";
  const context = wording.context ? `, ${wording.context}` : "";
  return new AppError(
    "CREDENTIAL_VENDING_FAILED",
    `The credential vending service at ${url.origin} ${reason} (HTTP ${status}${context}${quoted})`,
    { retryable },
  );
}
