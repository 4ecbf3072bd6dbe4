import { AppError } from "@sightline/domain";
import type { TemporaryCredentials } from "../aws-credentials.ts";
import { requireValidity } from "./require-validity.ts";
import { VendedCredentials, type VendingRequest } from "./vended-credentials.ts";

export interface FetchVendedCredentialsInput {
  /** The vending endpoint. HTTPS; plain HTTP is accepted only on loopback, for tests. */
  readonly url: string;
  /** Sightline's bearer token for that service. */
  readonly token: string;
  readonly request: VendingRequest;
  /** Default 15 s. */
  readonly timeoutMs?: number;
  /** Default: the current time. */
  readonly now?: Date;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const MAX_QUOTED_MESSAGE = 200;

/**
 * The `cvs` auditor method: POSTs the request as JSON with `Authorization: Bearer <token>` and
 * expects `{ accessKeyId, secretAccessKey, sessionToken, expiration }` (see README).
 */
export async function fetchVendedCredentials(
  input: FetchVendedCredentialsInput,
): Promise<TemporaryCredentials> {
  const url = checkUrl(input.url);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${input.token}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(input.request),
      redirect: "error",
      signal: AbortSignal.timeout(input.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      `The credential vending service at ${url.origin} did not answer (${(error as Error).name})`,
      { cause: error },
    );
  }
  if (!response.ok) throw await vendingError(response, url);
  const parsed = VendedCredentials.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "body";
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      `The credential vending service at ${url.origin} answered malformed credentials: ${where} ${issue?.message ?? "is invalid"}`,
      { retryable: false },
    );
  }
  const credentials = {
    accessKeyId: parsed.data.accessKeyId,
    secretAccessKey: parsed.data.secretAccessKey,
    sessionToken: parsed.data.sessionToken,
    expiration: new Date(parsed.data.expiration),
  };
  requireValidity(credentials.expiration, input.now, `vended by ${url.origin}`, true);
  return credentials;
}

function checkUrl(raw: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const secure =
    url?.protocol === "https:" || (url?.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  if (!url || !secure) {
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      "The credential vending URL must be an https:// URL (plain http only on loopback)",
      { retryable: false },
    );
  }
  return url;
}

async function vendingError(response: Response, url: URL): Promise<AppError> {
  const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
  const quoted =
    typeof body?.message === "string" ? `: ${body.message.slice(0, MAX_QUOTED_MESSAGE)}` : "";
  const status = response.status;
  const retryable = status === 429 || status >= 500;
  const reason =
    status === 401 || status === 403
      ? "refused Sightline's token"
      : status === 404
        ? "has no credentials for this account"
        : retryable
          ? "is unavailable"
          : "rejected the request";
  return new AppError(
    "CREDENTIAL_VENDING_FAILED",
    `The credential vending service at ${url.origin} ${reason} (HTTP ${status}${quoted})`,
    { retryable },
  );
}
