import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import { auditEventHash, type ChainedFields, GENESIS_HASH } from "./audit-chain.ts";
import type { Executor } from "./client.ts";
import { auditEvents } from "./schema.ts";

/** Serialises the appends of one tenant's chain (any fixed number: it names the lock class). */
const AUDIT_LOCK_CLASS = 4_842_790;

/** Holds a tenant's chain until the transaction ends (re-entrant: an append inside may take it again). */
export async function lockAuditChain(tx: Executor, tenant: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_CLASS}, hashtext(${tenant}))`);
}

export type NewAuditEvent = Omit<ChainedFields, "previousHash" | "at"> & { at?: Date };

export interface AuditEventRow extends ChainedFields {
  id: number;
  hash: string;
}

/**
 * Appends an event to its tenant's chain. Call it inside the transaction that makes the change:
 * the event commits, or rolls back, with it. Appends of a tenant wait for each other (a lock
 * held until the transaction ends), so each event's `previousHash` is its predecessor's hash.
 */
export async function appendAuditEvent(db: Executor, input: NewAuditEvent): Promise<AuditEventRow> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${AUDIT_LOCK_CLASS}, hashtext(${input.tenant}))`,
    );
    const [last] = await tx
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(eq(auditEvents.tenant, input.tenant))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    // Milliseconds, as a JavaScript date keeps them: the stored time hashes the same when read.
    const fields: ChainedFields = {
      ...input,
      at: new Date(Math.floor((input.at ?? new Date()).getTime())),
      previousHash: last?.hash ?? GENESIS_HASH,
    };
    const hash = auditEventHash(fields);
    const [row] = await tx
      .insert(auditEvents)
      .values({ ...fields, hash })
      .returning();
    if (!row) throw new Error("audit event not stored");
    return row as AuditEventRow;
  });
}

export interface AuditEventFilter {
  /** A tenant's trail; every tenant's (the operator) when absent. */
  tenant?: string;
  since?: Date;
  keyId?: string;
  /** The ID of the last event of the page before (newest first). */
  before?: number;
  limit: number;
}

/** Events newest first, one more than `limit` when more follow. */
export async function listAuditEvents(db: Executor, filter: AuditEventFilter) {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(
      and(
        filter.tenant !== undefined ? eq(auditEvents.tenant, filter.tenant) : undefined,
        filter.since ? gte(auditEvents.at, filter.since) : undefined,
        filter.keyId === "operator"
          ? sql`${auditEvents.keyId} is null`
          : filter.keyId
            ? eq(auditEvents.keyId, filter.keyId)
            : undefined,
        filter.before !== undefined ? lt(auditEvents.id, filter.before) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(filter.limit + 1);
  return rows as AuditEventRow[];
}
