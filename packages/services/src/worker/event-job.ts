import { randomBytes } from "node:crypto";
import {
  type AccountContext,
  type ExecutionRow,
  findActiveExecution,
  finishExecution,
  insertExecution,
  listExecutions,
  loadAccountContext,
  pendingEventWindow,
  requeueExecution,
  setJobLeaseExecution,
  startExecution,
} from "@sightline/db";
import { AppError, formatExecutionId, isAzureProvider } from "@sightline/domain";
import type PgBoss from "pg-boss";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import type { ServiceContext } from "../context.ts";
import { StepBases } from "../events/step-bases.ts";
import { type EventStepJob, enqueueEventStep } from "../queue/event-queue.ts";
import { type JobLease, LeaseLostError } from "../queue/job-lease.ts";

export interface EventSettings {
  /** A step waits until the account's events have been quiet this long (a burst is one step). */
  quietSeconds: number;
  /** … but no longer than this after the first pending event arrived. */
  maxWaitSeconds: number;
  /** Event steps this process runs at once (beside its analyses). */
  concurrency: number;
  /** How long a full analysis that is queued or running holds a step back before it looks again. */
  fullAnalysisPollSeconds: number;
  /**
   * Principals, over all accounts, whose last event step a worker keeps in memory (its collection
   * and model: `StepBases`) so that the account's next step starts from them; 0 keeps none.
   */
  keptPrincipals: number;
  /**
   * After a step failed (the auditor role refused, the account gone), the account's pending
   * events wait this long before the next step tries them, instead of failing again at once.
   * A full analysis that succeeds meanwhile takes them in.
   */
  failedStepPauseSeconds: number;
  /**
   * Each step stores the account patched, a whole snapshot: the maintenance job deletes a step's
   * snapshot this long after it was stored, unless it is the account's newest or that of stored
   * results. The full analyses' snapshots are kept `snapshotRetentionDays`.
   */
  snapshotRetentionHours: number;
}

export const DEFAULT_EVENT_SETTINGS: EventSettings = {
  quietSeconds: 3,
  maxWaitSeconds: 20,
  concurrency: 2,
  fullAnalysisPollSeconds: 10,
  keptPrincipals: 50_000,
  failedStepPauseSeconds: 300,
  snapshotRetentionHours: 48,
};

/** When the account's pending events are due: quiet for a while, or waiting too long. */
export function eventStepDue(
  window: { first?: Date; last?: Date },
  settings: Pick<EventSettings, "quietSeconds" | "maxWaitSeconds">,
): Date | undefined {
  if (!window.first || !window.last) return undefined;
  const quiet = window.last.getTime() + settings.quietSeconds * 1000;
  const cap = window.first.getTime() + settings.maxWaitSeconds * 1000;
  return new Date(Math.min(quiet, cap));
}

/** The account's event execution: the one an earlier attempt left queued, or a new one. */
async function startEventExecution(
  ctx: ServiceContext,
  account: AccountContext & { monitoring: NonNullable<AccountContext["monitoring"]> },
  lease: JobLease,
): Promise<ExecutionRow | undefined> {
  const key = { customerId: account.customerId, accountId: account.accountId };
  let executionId = await findActiveExecution(ctx.db, key, "event");
  for (let attempt = 0; !executionId && attempt < 5; attempt++) {
    const id = formatExecutionId({
      kind: "event",
      ...key,
      startedAt: ctx.now(),
      random: randomBytes(4),
    });
    const inserted = await insertExecution(
      ctx.db,
      {
        execution: {
          executionId: id,
          kind: "event",
          ...key,
          ...(account.partnerId ? { partnerId: account.partnerId } : {}),
          ...(account.partnerCustomerId ? { partnerCustomerId: account.partnerCustomerId } : {}),
          provider: account.monitoring.provider,
          authMethod: account.monitoring.auditorAuthMethod,
        },
      },
      async () => {},
    );
    if (inserted.kind === "inserted") executionId = id;
    else if (inserted.kind === "active") executionId = inserted.executionId;
  }
  if (!executionId) return undefined;
  const id = executionId;
  // The lease names the execution before it runs: a lost worker's step is queued again, saying so.
  return lease.fenced(ctx.db, async (tx) => {
    await setJobLeaseExecution(tx, lease.jobId, id);
    return startExecution(tx, id);
  });
}

/**
 * The event lane's job: waits out a burst (the job sends itself again for later), steps aside
 * while a full analysis of the account is queued or running (its success takes the events in),
 * then runs one event step over every pending event of the account.
 */
export function eventJobHandler(
  ctx: ServiceContext,
  settings: { analysis: AnalysisSettings; events: EventSettings },
) {
  // One per worker: the accounts' last steps, for their next ones.
  const bases = new StepBases(settings.events.keptPrincipals);
  return async (job: PgBoss.JobWithMetadata<EventStepJob>, lease: JobLease): Promise<void> => {
    const key = { customerId: job.data.customerId, accountId: job.data.accountId };
    const later = (startAfter: Date) => enqueueEventStep(ctx.boss, ctx.db, { ...key, startAfter });
    const window = await pendingEventWindow(ctx.db, key);
    const resuming = await findActiveExecution(ctx.db, key, "event");
    if (window.count === 0 && !resuming) return;
    const account = await loadAccountContext(ctx.db, key);
    const monitoring = account?.monitoring;
    if (!account || !monitoring || isAzureProvider(monitoring.provider)) return;
    const now = ctx.now().getTime();
    if (await findActiveExecution(ctx.db, key, "full"))
      return later(new Date(now + settings.events.fullAnalysisPollSeconds * 1000));
    if (!resuming) {
      // The account's last step failed: not again before the pause is over (its events wait).
      const [latest] = await listExecutions(ctx.db, key, 1);
      const failedAt = latest?.kind === "event" && latest.status === "failed" && latest.finishedAt;
      const until = failedAt
        ? failedAt.getTime() + settings.events.failedStepPauseSeconds * 1000
        : 0;
      if (until > now) return later(new Date(until));
    }
    const due = eventStepDue(window, settings.events);
    if (!resuming && due && due.getTime() > now) return later(due);
    const execution = await startEventExecution(ctx, { ...account, monitoring }, lease);
    if (!execution) return;
    const log = ctx.logger.child({
      executionId: execution.executionId,
      attempt: execution.attempts,
    });
    const { runEventStep } = await import("../events/run-event-step.ts");
    try {
      const step = await runEventStep(ctx, settings.analysis, execution, account, {
        lease,
        log,
        bases,
      });
      log.info({ events: step.events, changes: step.changes }, "event step applied");
    } catch (thrown) {
      if (thrown instanceof LeaseLostError) throw thrown;
      const error =
        thrown instanceof AppError
          ? thrown
          : new AppError(
              "INTERNAL",
              "Sightline failed internally; the operator's logs have the details",
              {
                cause: thrown,
              },
            );
      if (!(thrown instanceof AppError))
        log.error({ err: thrown }, "event step failed unexpectedly");
      if (error.retryable && job.retryCount < job.retryLimit) {
        await lease.fenced(ctx.db, (tx) =>
          requeueExecution(tx, execution.executionId, {
            code: error.code,
            message: `attempt ${execution.attempts} failed: ${error.message}`,
          }),
        );
        throw error;
      }
      const failure = { code: error.code, message: error.message };
      await lease.fenced(ctx.db, (tx) =>
        finishExecution(tx, execution.executionId, { status: "failed", failure, warnings: [] }),
      );
      log.warn({ code: error.code }, "event step failed");
    }
    // Events that arrived during the step are the next step's.
    const next = eventStepDue(await pendingEventWindow(ctx.db, key), settings.events);
    if (next) await later(next);
  };
}
