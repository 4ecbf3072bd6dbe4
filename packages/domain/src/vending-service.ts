import type { z } from "zod";
import { AppError } from "./app-error.ts";

/**
 * The HTTP exchange with a partner's credential vending service (the `cvs` auditor method),
 * shared by the AWS and Azure collectors: a JSON POST with `Authorization: Bearer <token>`,
 * answered `200` with a JSON body (see the README's `cvs` section).
 */
export interface VendingServiceCall<T> {
  /** Checked by `vendingServiceUrl`. */
  readonly url: URL;
  /** Sightline's bearer token for that service. */
  readonly token: string;
  readonly body: unknown;
  /** What a `200` answer must hold. */
  readonly schema: z.ZodType<T>;
  /** Default 15 s. */
  readonly timeoutMs?: number;
  /** Words for the error messages: what a 404 lacks, what a malformed answer was. */
  readonly wording: { notFound: string; malformed: string; context?: string };
}

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

/** POSTs the call and returns the parsed answer; every failure is `CREDENTIAL_VENDING_FAILED`. */
export async function callVendingService<T>(call: VendingServiceCall<T>): Promise<T> {
  const { url } = call;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${call.token}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(call.body),
      redirect: "error",
      signal: AbortSignal.timeout(call.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      `The credential vending service at ${url.origin} did not answer (${(error as Error).name})`,
      { cause: error },
    );
  }
  if (!response.ok) throw await refusal(response, url, call.wording);
  const parsed = call.schema.safeParse(await response.json().catch(() => undefined));
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

async function refusal(
  response: Response,
  url: URL,
  wording: VendingServiceCall<unknown>["wording"],
): Promise<AppError> {
  const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
  const quoted =
    typeof body?.message === "string" ? `: ${body.message.slice(0, MAX_QUOTED_MESSAGE)}` : "";
  const status = response.status;
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
