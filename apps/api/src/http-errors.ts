import type { ErrorCode, ErrorDetails } from "@sightline/domain";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * How the API states an error: the status of each code (exhaustive: a new code does not compile
 * until it has one) and the headers of its details.
 */
export const HTTP_STATUS = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  // An analysis's failures, should one reach a caller: a cloud refused or failed (502).
  ASSUME_ROLE_DENIED: 502,
  CREDENTIAL_EXPIRED: 502,
  CREDENTIAL_INVALID: 502,
  ACCESS_DENIED: 502,
  CREDENTIAL_VENDING_FAILED: 502,
  INBOX_DENIED: 502,
  INBOX_NOT_FOUND: 502,
  // The owner has not proven it controls the inbox bucket (delivery verification).
  INBOX_UNPROVEN: 409,
  INBOX_INTEGRITY: 502,
  THROTTLED: 502,
  CLOUD_UNAVAILABLE: 502,
  INCREMENTAL_READ_DENIED: 502,
  // A worker's disk was full: the service's own trouble, which may pass.
  DISK_FULL: 503,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

export type HttpErrorStatus = (typeof HTTP_STATUS)[ErrorCode];

/** `Retry-After`, `X-Execution-Id`, `Allow` and `WWW-Authenticate` from an error's details. */
export function httpHeadersOf(details: ErrorDetails): Record<string, string> {
  const headers: Record<string, string> = {};
  if (details.retryAfterSeconds !== undefined)
    headers["retry-after"] = String(details.retryAfterSeconds);
  if (details.activeExecutionId !== undefined)
    headers["x-execution-id"] = details.activeExecutionId;
  if (details.allowedMethods !== undefined) headers.allow = details.allowedMethods.join(", ");
  if (details.credentials === "missing") headers["www-authenticate"] = "Bearer";
  if (details.credentials === "invalid")
    headers["www-authenticate"] = 'Bearer error="invalid_token"';
  return headers;
}
