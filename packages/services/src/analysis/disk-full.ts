import { AppError } from "@sightline/domain";

/** The errno codes of a disk (or a quota) that has no room left. */
const FULL = new Set(["ENOSPC", "EDQUOT"]);

/** Whether `error` (or one of its causes) says the disk had no room left. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause)
    if (FULL.has((e as NodeJS.ErrnoException).code ?? "")) return true;
  return false;
}

/**
 * A write that found the worker's disk full, as a failure the operator can act on: `what` was
 * being written in `folder`. It may pass (space freed, or the next attempt on another worker):
 * retryable. Undefined for any other error.
 */
export function diskFullFailure(
  error: unknown,
  what: string,
  folder: string,
): AppError | undefined {
  if (!isDiskFull(error)) return undefined;
  return new AppError(
    "DISK_FULL",
    `The worker's disk is full: writing ${what} in ${folder} failed (no space left on the device); the operator must free space there (SIGHTLINE_DATA_DIR), then the analysis can run again`,
    { cause: error },
  );
}
