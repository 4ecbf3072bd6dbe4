import type { AlertAttemptOutcome } from "@sightline/domain";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { alertAttempts, alertChanges, alertDeliveries } from "./schema.ts";

/** Any fixed number: the first key of the advisory locks on a destination's alerted changes. */
const DESTINATION_LOCK_CLASS = 4_842_774;

export type AlertDeliveryStatus = "queued" | "delivered" | "failed";

export interface AlertDeliveryRow {
  alertId: string;
  destinationId: string;
  executionId: string;
  customerId: string;
  accountId: string;
  provider: string;
  analysisTime: Date;
  changeIds: string[];
  changes: unknown[];
  status: AlertDeliveryStatus;
  attempts: number;
  lastError?: string;
  deliveredAt?: Date;
}

type Row = typeof alertDeliveries.$inferSelect;
const toDelivery = (row: Row): AlertDeliveryRow => ({
  alertId: row.alertId,
  destinationId: row.destinationId,
  executionId: row.executionId,
  customerId: row.customerId,
  accountId: row.accountId,
  provider: row.provider,
  analysisTime: row.analysisTime,
  changeIds: row.changeIds,
  changes: row.changes,
  status: row.status as AlertDeliveryStatus,
  attempts: row.attempts,
  ...(row.lastError === null ? {} : { lastError: row.lastError }),
  ...(row.deliveredAt === null ? {} : { deliveredAt: row.deliveredAt }),
});

/**
 * Of `changeIds`, those never alerted to the destination. Locks the destination's alerted
 * changes until the transaction ends, so that two enqueues of the same analysis cannot both
 * find a change new.
 */
export async function changesNotYetAlerted(
  tx: Executor,
  destinationId: string,
  changeIds: readonly string[],
): Promise<string[]> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${DESTINATION_LOCK_CLASS}, hashtext(${destinationId}))`,
  );
  if (changeIds.length === 0) return [];
  const rows = await tx
    .select({ changeId: alertChanges.changeId })
    .from(alertChanges)
    .where(
      and(
        eq(alertChanges.destinationId, destinationId),
        inArray(alertChanges.changeId, [...changeIds]),
      ),
    );
  const alerted = new Set(rows.map((row) => row.changeId));
  return changeIds.filter((id) => !alerted.has(id));
}

/**
 * Records an alert and its changes. The unique (destination, change) rows make a change that
 * was alerted already fail the insert: call `changesNotYetAlerted` first in the transaction.
 */
export async function insertAlertDelivery(
  tx: Executor,
  delivery: Omit<AlertDeliveryRow, "status" | "attempts" | "lastError" | "deliveredAt">,
): Promise<void> {
  await tx.insert(alertDeliveries).values({ ...delivery, status: "queued" });
  await tx.insert(alertChanges).values(
    delivery.changeIds.map((changeId) => ({
      destinationId: delivery.destinationId,
      changeId,
      alertId: delivery.alertId,
    })),
  );
}

export async function getAlertDelivery(
  db: Executor,
  alertId: string,
): Promise<AlertDeliveryRow | undefined> {
  const [row] = await db.select().from(alertDeliveries).where(eq(alertDeliveries.alertId, alertId));
  return row ? toDelivery(row) : undefined;
}

/** The alerts enqueued for a destination, oldest first (tests and support). */
export async function listAlertDeliveries(
  db: Executor,
  destinationId: string,
): Promise<AlertDeliveryRow[]> {
  const rows = await db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.destinationId, destinationId))
    .orderBy(alertDeliveries.createdAt);
  return rows.map(toDelivery);
}

/** The alerts enqueued for one execution, to any destination. */
export async function listAlertDeliveriesOfExecution(
  db: Executor,
  executionId: string,
): Promise<AlertDeliveryRow[]> {
  const rows = await db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.executionId, executionId))
    .orderBy(alertDeliveries.createdAt);
  return rows.map(toDelivery);
}

/**
 * Records one attempt and what it means for the alert: `delivered` and `failed` end it,
 * `retrying` leaves it queued. Returns false when the alert no longer exists (its destination
 * was removed).
 */
export async function recordAlertAttempt(
  db: Executor,
  attempt: {
    alertId: string;
    destinationId: string;
    outcome: AlertAttemptOutcome;
    status?: number;
    error?: string;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const status: AlertDeliveryStatus = attempt.outcome === "retrying" ? "queued" : attempt.outcome;
    const updated = await tx
      .update(alertDeliveries)
      .set({
        status,
        attempts: sql`${alertDeliveries.attempts} + 1`,
        lastError: attempt.error ?? null,
        ...(attempt.outcome === "delivered" ? { deliveredAt: sql`now()` } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(alertDeliveries.alertId, attempt.alertId))
      .returning({ alertId: alertDeliveries.alertId });
    if (updated.length === 0) return false;
    await tx.insert(alertAttempts).values({
      alertId: attempt.alertId,
      destinationId: attempt.destinationId,
      outcome: attempt.outcome,
      status: attempt.status ?? null,
      error: attempt.error ?? null,
    });
    return true;
  });
}
