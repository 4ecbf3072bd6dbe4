import { AppError } from "@sightline/domain";
import type { AnalysisSettings } from "./analysis-settings.ts";

/** The errno codes of a disk (or a quota) that has no room left. */
const FULL = new Set(["ENOSPC", "EDQUOT"]);

function fullDiskError(error: unknown): NodeJS.ErrnoException | undefined {
  for (let e = error; e instanceof Error; e = e.cause)
    if (FULL.has((e as NodeJS.ErrnoException).code ?? "")) return e as NodeJS.ErrnoException;
  return undefined;
}

/**
 * A write that found the worker's disk full, as a failure the operator can act on: which folder
 * (the work directory's reports, or the folder inbox) has no room. It may pass (space freed, or
 * the next attempt on another worker): retryable. Undefined for any other error.
 */
export function diskFullFailure(error: unknown, settings: AnalysisSettings): AppError | undefined {
  const full = fullDiskError(error);
  if (!full) return undefined;
  const where = full.path ?? "";
  const inbox = where.startsWith(settings.inboxDir);
  const what = inbox
    ? `the local inbox folder ${settings.inboxDir}`
    : `the work directory ${settings.workDir}`;
  return new AppError(
    "DISK_FULL",
    `The worker's disk is full: writing ${inbox ? "the delivered reports" : "the reports"} in ${what} failed (${full.code}); the operator must free space there (SIGHTLINE_DATA_DIR), then the analysis can run again`,
    { cause: error },
  );
}
