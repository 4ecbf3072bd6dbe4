import type { ExecutionRow } from "@sightline/db";
import type { AccessChange } from "@sightline/domain";
import type { Logger } from "@sightline/logging";
import type { ServiceContext } from "../context.ts";
import { type JobLease, LeaseLostError } from "../queue/job-lease.ts";
import { enqueueAlerts } from "./enqueue-alerts.ts";

/**
 * Alerts the owner's destinations of what changed, once the changes are stored (and a full
 * analysis's reports delivered): an alert that cannot be enqueued is logged, and the
 * execution stays a success (running it again would enqueue the same alerts, never twice).
 */
export async function alertOnChanges(
  ctx: ServiceContext,
  execution: ExecutionRow,
  analysisTime: Date,
  changes: readonly AccessChange[],
  { log, lease }: { log: Logger; lease: JobLease },
): Promise<void> {
  if (changes.length === 0) return;
  try {
    const { enqueued } = await enqueueAlerts(ctx, {
      customerId: execution.customerId,
      ...(execution.partnerId ? { partnerId: execution.partnerId } : {}),
      provider: execution.provider,
      accountId: execution.accountId,
      executionId: execution.executionId,
      analysisTime,
      changes,
      fenced: (write) => lease.fenced(ctx.db, write),
    });
    if (enqueued > 0) log.info({ alerts: enqueued }, "alerts enqueued");
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    log.error({ err: error }, "the alerts of this analysis could not be enqueued");
  }
}
