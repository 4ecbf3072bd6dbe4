import { createHash } from "node:crypto";
import {
  type AlertOwner,
  changesNotYetAlerted,
  type Executor,
  insertAlertDelivery,
  listAlertDestinations,
  sqlExecutorOf,
} from "@sightline/db";
import { type AccessChange, type ChangeKind, changeMatchesKind } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { ALERT_QUEUE, type AlertJob, alertRetryOptions } from "../queue/alert-queue.ts";

export interface EnqueueAlertsInput {
  /** The account's customer (a partner's: `P123456-000000000001`). */
  customerId: string;
  /** When the customer is a partner's: the partner's destinations apply. */
  partnerId?: string;
  provider: string;
  accountId: string;
  /** The later analysis of the comparison. */
  executionId: string;
  analysisTime: Date;
  changes: readonly AccessChange[];
  /** Each alert's transaction as the holder of the job's lease (`JobLease.fenced`). */
  fenced?: <T>(write: (tx: Executor) => Promise<T>) => Promise<T>;
}

/**
 * An alert's ID: the first 32 hex digits of SHA-256 over the destination ID, the execution ID and
 * the IDs of the changes it carries. The same alert is always the same ID, and two alerts never
 * share one (a change goes to a destination once).
 */
export function alertIdOf(
  destinationId: string,
  executionId: string,
  changeIds: readonly string[],
): string {
  return createHash("sha256")
    .update(`${destinationId}\n${executionId}\n${changeIds.join(",")}`)
    .digest("hex")
    .slice(0, 32);
}

/**
 * After an analysis: for each alert destination of the partner (for a partner's customer) or of
 * the direct customer, the changes its rule matches (`alertOn`, by `changeMatchesKind`) and that
 * were never alerted to it become one alert, stored and enqueued in one transaction. A change is
 * never enqueued twice for a destination: calling this again with the same changes enqueues
 * nothing. Returns how many alerts (one per destination at most) were enqueued.
 */
export async function enqueueAlerts(
  ctx: ServiceContext,
  input: EnqueueAlertsInput,
): Promise<{ enqueued: number }> {
  if (input.partnerId && !input.customerId.startsWith(`${input.partnerId}-`))
    throw new Error(`customer ${input.customerId} is not a customer of partner ${input.partnerId}`);
  const owner: AlertOwner = input.partnerId
    ? { kind: "partner", partnerId: input.partnerId }
    : { kind: "direct", customerId: input.customerId };
  const destinations = await listAlertDestinations(ctx.db, owner);
  const byId = new Map<string, AccessChange>();
  for (const change of input.changes)
    if (!byId.has(change.changeId)) byId.set(change.changeId, change);
  const changes = [...byId.values()];
  let enqueued = 0;
  for (const destination of destinations) {
    const kinds = destination.alertOn as ChangeKind[];
    const matching = changes.filter((change) => kinds.some((k) => changeMatchesKind(change, k)));
    if (matching.length === 0) continue;
    const fenced = input.fenced ?? ((write) => ctx.db.transaction(write));
    const alertId = await fenced(async (tx) => {
      const fresh = new Set(
        await changesNotYetAlerted(
          tx,
          destination.destinationId,
          matching.map((change) => change.changeId),
        ),
      );
      const alerted = matching.filter((change) => fresh.has(change.changeId));
      if (alerted.length === 0) return undefined;
      const changeIds = alerted.map((change) => change.changeId);
      const id = alertIdOf(destination.destinationId, input.executionId, changeIds);
      await insertAlertDelivery(tx, {
        alertId: id,
        destinationId: destination.destinationId,
        executionId: input.executionId,
        customerId: input.customerId,
        accountId: input.accountId,
        provider: input.provider,
        analysisTime: input.analysisTime,
        changeIds,
        changes: alerted,
      });
      const job = await ctx.boss.send(ALERT_QUEUE, { alertId: id } satisfies AlertJob, {
        db: sqlExecutorOf(tx),
        ...alertRetryOptions(ctx.alerts),
      });
      // pg-boss answers null instead of throwing when it writes no job: nothing would send it.
      if (!job)
        throw new Error(`queue '${ALERT_QUEUE}' refused alert ${id}: were the queues created?`);
      return id;
    });
    if (alertId) {
      enqueued++;
      ctx.logger.info(
        { alertId, destinationId: destination.destinationId, executionId: input.executionId },
        "alert enqueued",
      );
    }
  }
  return { enqueued };
}
