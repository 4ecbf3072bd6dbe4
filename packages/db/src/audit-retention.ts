import { and, asc, eq, gt, lt, lte, max, sql } from "drizzle-orm";
import { auditEventHash, GENESIS_HASH } from "./audit-chain.ts";
import { type AuditEventRow, appendAuditEvent, lockAuditChain } from "./audit-events.ts";
import type { Executor } from "./client.ts";
import { auditEvents } from "./schema.ts";

export interface ChainVerdict {
  tenant: string;
  events: number;
  /** The events whose hash or link is wrong, oldest first; empty when the chain holds. */
  problems: { id: number; reason: string }[];
}

/**
 * Recomputes a tenant's chain from its oldest event. Its first event links to nothing (the
 * genesis hash) or to the last event a recorded pruning deleted.
 */
export async function verifyAuditChain(db: Executor, tenant: string): Promise<ChainVerdict> {
  const problems: ChainVerdict["problems"] = [];
  const anchors = new Set([GENESIS_HASH]);
  let previous: string | undefined;
  let events = 0;
  let after = 0;
  for (;;) {
    const page = (await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant, tenant), gt(auditEvents.id, after)))
      .orderBy(asc(auditEvents.id))
      .limit(1000)) as AuditEventRow[];
    if (page.length === 0) break;
    if (previous === undefined) for (const row of await pruneAnchors(db, tenant)) anchors.add(row);
    for (const row of page) {
      events++;
      if (auditEventHash(row) !== row.hash)
        problems.push({ id: row.id, reason: "its fields do not match its hash (edited)" });
      if (previous === undefined ? !anchors.has(row.previousHash) : row.previousHash !== previous)
        problems.push({ id: row.id, reason: "it does not link to the event before it" });
      previous = row.hash;
      after = row.id;
    }
  }
  return { tenant, events, problems };
}

async function pruneAnchors(db: Executor, tenant: string): Promise<string[]> {
  const rows = await db
    .select({ changes: auditEvents.changes })
    .from(auditEvents)
    .where(and(eq(auditEvents.tenant, tenant), eq(auditEvents.action, PRUNED)));
  return rows.flatMap((r) => {
    const through = (r.changes as { prunedThroughHash?: { new?: unknown } }).prunedThroughHash;
    return typeof through?.new === "string" ? [through.new] : [];
  });
}

const PRUNED = "audit.pruned";

/** Every tenant with a trail (for `sightline audit verify --all`). */
export async function listAuditTenants(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ tenant: auditEvents.tenant })
    .from(auditEvents)
    .groupBy(auditEvents.tenant)
    .orderBy(auditEvents.tenant);
  return rows.map((r) => r.tenant);
}

/**
 * Deletes each tenant's events older than `before`, and records that in the tenant's chain
 * first (the pruning event links to the newest event, then the old ones go): the chain
 * stays verifiable from the oldest event kept. Returns how many events were deleted.
 */
export async function pruneAuditEvents(db: Executor, before: Date, now: Date): Promise<number> {
  const tenants = await db
    .select({ tenant: auditEvents.tenant, through: max(auditEvents.id) })
    .from(auditEvents)
    .where(and(lt(auditEvents.at, before), sql`${auditEvents.action} <> ${PRUNED}`))
    .groupBy(auditEvents.tenant);
  let deleted = 0;
  for (const { tenant, through } of tenants) {
    if (through === null) continue;
    deleted += await db.transaction(async (tx) => {
      // Another process pruning at once finds nothing left, and records nothing.
      await lockAuditChain(tx, tenant);
      const [last] = await tx
        .select({ hash: auditEvents.hash })
        .from(auditEvents)
        .where(eq(auditEvents.id, through));
      if (!last) return 0;
      const gone = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(and(eq(auditEvents.tenant, tenant), lte(auditEvents.id, through)));
      const count = gone[0]?.n ?? 0;
      if (count === 0) return 0;
      await appendAuditEvent(tx, {
        tenant,
        at: now,
        keyId: null,
        actorName: "sightline",
        action: PRUNED,
        route: "retention",
        params: {},
        status: 200,
        requestId: null,
        changes: {
          prunedEvents: { old: null, new: count },
          prunedBefore: { old: null, new: before.toISOString() },
          prunedThroughHash: { old: null, new: last.hash },
        },
      });
      await tx
        .delete(auditEvents)
        .where(and(eq(auditEvents.tenant, tenant), lte(auditEvents.id, through)));
      return count;
    });
  }
  return deleted;
}
