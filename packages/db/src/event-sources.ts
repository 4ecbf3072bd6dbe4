import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { accountEvents, eventSources } from "./schema-events.ts";

export type EventSourceRow = typeof eventSources.$inferSelect;

export interface EventSourceKey {
  /** The execution-style customer ID (a partner customer's mapped ID). */
  customerId: string;
  accountId: string;
}

/** Creates the account's event source, or replaces its token (the old one stops at once). */
export async function rotateEventSource(
  db: Executor,
  input: EventSourceKey & { provider: string; tokenHash: Buffer },
): Promise<EventSourceRow> {
  const [row] = await db
    .insert(eventSources)
    .values({ ...input, tokenCreatedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [eventSources.customerId, eventSources.accountId],
      set: { tokenHash: input.tokenHash, tokenCreatedAt: sql`now()`, provider: input.provider },
    })
    .returning();
  if (!row) throw new Error("event source not stored");
  return row;
}

export async function getEventSource(
  db: Executor,
  key: EventSourceKey,
): Promise<EventSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(eventSources)
    .where(
      and(eq(eventSources.customerId, key.customerId), eq(eventSources.accountId, key.accountId)),
    );
  return row;
}

/** Switches the account's events off; its token stops working at once. */
export async function deleteEventSource(db: Executor, key: EventSourceKey): Promise<boolean> {
  const rows = await db
    .delete(eventSources)
    .where(
      and(eq(eventSources.customerId, key.customerId), eq(eventSources.accountId, key.accountId)),
    )
    .returning({ accountId: eventSources.accountId });
  return rows.length > 0;
}

/**
 * Forgets the account's event source and its pending events (no step applies them now); false
 * when there was none. The events already applied or refused stay until their retention: the
 * executions that applied them still name them, and a replay of one is still a duplicate.
 */
export async function deleteAccountEventSource(
  db: Executor,
  key: EventSourceKey,
): Promise<boolean> {
  const deleted = await deleteEventSource(db, key);
  await db
    .delete(accountEvents)
    .where(
      and(
        eq(accountEvents.customerId, key.customerId),
        eq(accountEvents.accountId, key.accountId),
        eq(accountEvents.status, "pending"),
      ),
    );
  return deleted;
}

/** The event source a token's hash names (the token itself is never stored). */
export async function findEventSourceByTokenHash(
  db: Executor,
  tokenHash: Buffer,
): Promise<EventSourceRow | undefined> {
  const [row] = await db.select().from(eventSources).where(eq(eventSources.tokenHash, tokenHash));
  return row;
}

/** Counts an event refused after its token was recognised (wrong account, bad body). */
export async function countRefusedEvent(db: Executor, key: EventSourceKey): Promise<void> {
  await db
    .update(eventSources)
    .set({ eventsRefused: sql`${eventSources.eventsRefused} + 1` })
    .where(
      and(eq(eventSources.customerId, key.customerId), eq(eventSources.accountId, key.accountId)),
    );
}

/** Every tenant's event source of one AWS account (an account several tenants monitor). */
export async function listEventSourcesOfAccount(
  db: Executor,
  accountId: string,
): Promise<EventSourceRow[]> {
  return db.select().from(eventSources).where(eq(eventSources.accountId, accountId));
}
