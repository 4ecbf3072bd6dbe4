import type { Executor } from "@sightline/db";
import { holdsJobLease } from "@sightline/db";

/** Thrown into an attempt whose lease is gone: another attempt owns its job now. */
export class LeaseLostError extends Error {
  constructor(
    readonly jobId: string,
    readonly why: "lost" | "overrun",
  ) {
    super(
      why === "lost"
        ? `job ${jobId}: its lease was lost; another attempt runs it`
        : `job ${jobId}: it ran past its kind's maximum run time`,
    );
    this.name = "LeaseLostError";
  }
}

/**
 * What a running attempt holds: its signal (aborted once the lease is lost or the run is over
 * its time) and the fence through which it writes what only the lease holder may write.
 */
export interface JobLease {
  readonly jobId: string;
  readonly signal: AbortSignal;
  /** Throws `LeaseLostError` once the lease is gone. */
  check(): void;
  /**
   * Runs `write` in a transaction that first checks the lease and keeps it from being reaped
   * until the transaction ends; throws `LeaseLostError` (writing nothing) once it is gone.
   */
  fenced<T>(db: Executor, write: (tx: Executor) => Promise<T>): Promise<T>;
}

/** A lease for work that runs outside the queue (tests, the CLI): never lost, never fenced. */
export const UNLEASED: JobLease = {
  jobId: "",
  signal: new AbortController().signal,
  check() {},
  fenced: (db, write) => write(db),
};

/** The lease of one attempt, as its keeper makes it. */
export function heldLease(jobId: string, owner: string, controller: AbortController): JobLease {
  const check = () => {
    if (controller.signal.aborted) throw controller.signal.reason;
  };
  return {
    jobId,
    signal: controller.signal,
    check,
    async fenced(db, write) {
      check();
      return db.transaction(async (tx) => {
        if (!(await holdsJobLease(tx, jobId, owner))) throw new LeaseLostError(jobId, "lost");
        return write(tx);
      });
    },
  };
}
