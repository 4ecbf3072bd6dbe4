import { and, asc, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import type { EventSourceKey } from "./event-sources.ts";
import { accountEvents, eventSources } from "./schema-events.ts";

export type AccountEventRow = typeof accountEvents.$inferSelect;

export interface NewAccountEvent extends EventSourceKey {
  provider: string;
  eventId: string;
  eventName: string;
  eventTime: Date;
  /** What to read again; undefined for an event Sightline does not know (counted only). */
  targets?: Record<string, unknown>[];
  /**
   * Another account's event that reaches this one (an SCP event of its management account):
   * counted as received, but not as this account's last event, which says whether its own rule
   * still forwards.
   */
  fannedOut?: boolean;
}

const sourceOf = (key: EventSourceKey) =>
  and(eq(eventSources.customerId, key.customerId), eq(eventSources.accountId, key.accountId));

const eventsOf = (key: EventSourceKey) =>
  and(eq(accountEvents.customerId, key.customerId), eq(accountEvents.accountId, key.accountId));

/**
 * Records an event once per (account, event ID): a retried delivery of the same event answers
 * `duplicate` and changes nothing. Counts it on the account's event source.
 */
export async function recordAccountEvent(
  db: Executor,
  event: NewAccountEvent,
): Promise<"pending" | "unknown" | "duplicate"> {
  const status = event.targets ? "pending" : "unknown";
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(accountEvents)
      .values({
        customerId: event.customerId,
        accountId: event.accountId,
        provider: event.provider,
        eventId: event.eventId,
        eventName: event.eventName,
        eventTime: event.eventTime,
        targets: event.targets ?? null,
        status,
      })
      .onConflictDoNothing()
      .returning({ seq: accountEvents.seq });
    if (inserted.length === 0) return "duplicate";
    await tx
      .update(eventSources)
      .set({
        eventsReceived: sql`${eventSources.eventsReceived} + 1`,
        ...(status === "unknown" ? { unknownEvents: sql`${eventSources.unknownEvents} + 1` } : {}),
        ...(event.fannedOut ? {} : { lastEventAt: sql`now()` }),
      })
      .where(sourceOf(event));
    return status;
  });
}

/** The account's pending events: how many, and when the first and the last arrived. */
export async function pendingEventWindow(
  db: Executor,
  key: EventSourceKey,
): Promise<{ count: number; first?: Date; last?: Date }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      first: sql<string | null>`min(${accountEvents.receivedAt})`,
      last: sql<string | null>`max(${accountEvents.receivedAt})`,
    })
    .from(accountEvents)
    .where(and(eventsOf(key), eq(accountEvents.status, "pending")));
  return {
    count: row?.count ?? 0,
    ...(row?.first ? { first: new Date(row.first) } : {}),
    ...(row?.last ? { last: new Date(row.last) } : {}),
  };
}

/** Takes the account's pending events for an event step (a later step takes any it leaves). */
export async function claimPendingEvents(
  db: Executor,
  key: EventSourceKey,
  executionId: string,
): Promise<AccountEventRow[]> {
  return db
    .update(accountEvents)
    .set({ executionId })
    .where(and(eventsOf(key), eq(accountEvents.status, "pending")))
    .returning()
    .then((rows) => rows.sort((a, b) => a.seq - b.seq));
}

/**
 * The events an execution applied: an event step's own, or — for a full analysis — every event
 * still pending that arrived before its collection began (`before`), which the collection saw.
 */
export async function markEventsApplied(
  db: Executor,
  key: EventSourceKey,
  executionId: string,
  before?: Date,
): Promise<number> {
  const rows = await db
    .update(accountEvents)
    .set({ status: "applied", executionId })
    .where(
      and(
        eventsOf(key),
        eq(accountEvents.status, "pending"),
        before ? lt(accountEvents.receivedAt, before) : eq(accountEvents.executionId, executionId),
      ),
    )
    .returning({ seq: accountEvents.seq });
  if (rows.length > 0)
    await db
      .update(eventSources)
      .set({
        eventsApplied: sql`${eventSources.eventsApplied} + ${rows.length}`,
        lastAppliedAt: sql`now()`,
      })
      .where(sourceOf(key));
  return rows.length;
}

/** The CloudTrail event IDs an execution applied, in arrival order. */
export async function listAppliedEventIds(db: Executor, executionId: string): Promise<string[]> {
  return (await listAppliedEventIdsOf(db, [executionId])).get(executionId) ?? [];
}

/** The event IDs each of these executions applied, in arrival order. */
export async function listAppliedEventIdsOf(
  db: Executor,
  executionIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byExecution = new Map<string, string[]>();
  if (executionIds.length === 0) return byExecution;
  const rows = await db
    .select({ executionId: accountEvents.executionId, eventId: accountEvents.eventId })
    .from(accountEvents)
    .where(
      and(
        inArray(accountEvents.executionId, [...executionIds]),
        eq(accountEvents.status, "applied"),
      ),
    )
    .orderBy(asc(accountEvents.seq));
  for (const { executionId, eventId } of rows) {
    if (!executionId) continue;
    const list = byExecution.get(executionId) ?? [];
    list.push(eventId);
    byExecution.set(executionId, list);
  }
  return byExecution;
}

/** Forgets events older than `before` that are no longer pending (dedupe needs 24 h). */
export async function pruneAccountEvents(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(accountEvents)
    .where(and(lt(accountEvents.receivedAt, before), ne(accountEvents.status, "pending")))
    .returning({ seq: accountEvents.seq });
  return rows.length;
}
