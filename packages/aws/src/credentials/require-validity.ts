import { AppError } from "@sightline/domain";

/** Collection of a small account takes seconds; a minute left is the least worth starting. */
export const MINIMUM_VALIDITY_MS = 60_000;

/**
 * Refuses credentials that expire within a minute of `now`, naming where they came from.
 * `retryable` when running again fetches new ones (vended), not when a person must act.
 */
export function requireValidity(
  expiration: Date,
  now: Date | undefined,
  source: string,
  retryable = false,
): void {
  const at = (now ?? new Date()).getTime();
  if (expiration.getTime() - at >= MINIMUM_VALIDITY_MS) return;
  const when = expiration.getTime() <= at ? "expired" : "expire";
  throw new AppError(
    "CREDENTIAL_EXPIRED",
    `The credentials ${source} ${when} at ${expiration.toISOString()}: supply credentials valid for at least another minute`,
    { retryable },
  );
}
