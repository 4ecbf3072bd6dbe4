/**
 * Postgres error codes that mean "not now" rather than "wrong": a statement or lock timeout,
 * a cancelled or terminated backend, a server starting or stopping, no free connection.
 */
const TRANSIENT_SQLSTATES = new Set([
  "57014", // query_canceled: statement_timeout, or a cancelled backend
  "55P03", // lock_not_available: lock_timeout
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

/** Errors of the driver or the socket when the server cannot be reached or went away. */
const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * Whether an error (or any error it wraps, as drizzle's query errors do) says the database is
 * unreachable or too busy to answer in time: a caller may retry, and the answer is 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === "object" && !seen.has(e); ) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      if (TRANSIENT_SQLSTATES.has(code) || code.startsWith("08") || CONNECTION_ERRORS.has(code))
        return true;
    }
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
