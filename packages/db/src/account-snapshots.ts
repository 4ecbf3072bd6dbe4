import { and, desc, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { accountSnapshots, analysisResults, executions } from "./schema.ts";

export interface StoredSnapshot {
  executionId: string;
  customerId: string;
  accountId: string;
  collectedAt: Date;
  /** gzip-compressed JSON. */
  data: Buffer;
  /** The AWS organisation collection saw (`o-…`, '' for none); null when not known. */
  organizationId?: string | null;
}

export async function insertSnapshot(db: Executor, snapshot: StoredSnapshot): Promise<void> {
  await db
    .insert(accountSnapshots)
    .values(snapshot)
    .onConflictDoUpdate({
      target: accountSnapshots.executionId,
      set: {
        data: snapshot.data,
        collectedAt: snapshot.collectedAt,
        organizationId: snapshot.organizationId ?? null,
      },
    });
}

export async function getSnapshotOfExecution(
  db: Executor,
  executionId: string,
): Promise<StoredSnapshot | undefined> {
  const [row] = await db
    .select()
    .from(accountSnapshots)
    .where(eq(accountSnapshots.executionId, executionId));
  return row;
}

/** An account's snapshots, `except`'s left out (the two reads below take the newest). */
const newestOf = (key: { customerId: string; accountId: string }, except?: string) =>
  and(
    eq(accountSnapshots.customerId, key.customerId),
    eq(accountSnapshots.accountId, key.accountId),
    except === undefined ? undefined : ne(accountSnapshots.executionId, except),
  );

/**
 * The newest snapshot of an account (what endpoint 12 answers from); with `except`, the newest
 * of another execution (what an event step's attempt patches: an earlier attempt of the same
 * step may have stored its own).
 */
export async function latestSnapshot(
  db: Executor,
  key: { customerId: string; accountId: string },
  except?: string,
): Promise<StoredSnapshot | undefined> {
  const [row] = await db
    .select()
    .from(accountSnapshots)
    .where(newestOf(key, except))
    .orderBy(desc(accountSnapshots.collectedAt))
    .limit(1);
  return row;
}

/** `latestSnapshot` without its data: which execution's it is, and when it was collected. */
export async function latestSnapshotHead(
  db: Executor,
  key: { customerId: string; accountId: string },
  except?: string,
): Promise<Omit<StoredSnapshot, "data"> | undefined> {
  const [row] = await db
    .select({
      executionId: accountSnapshots.executionId,
      customerId: accountSnapshots.customerId,
      accountId: accountSnapshots.accountId,
      collectedAt: accountSnapshots.collectedAt,
      organizationId: accountSnapshots.organizationId,
    })
    .from(accountSnapshots)
    .where(newestOf(key, except))
    .orderBy(desc(accountSnapshots.collectedAt))
    .limit(1);
  return row;
}

/** Deletes snapshots collected before `before`, except each account's newest. */
export async function deleteSnapshotsBefore(db: Executor, before: Date): Promise<number> {
  const newest = db
    .selectDistinctOn([accountSnapshots.customerId, accountSnapshots.accountId], {
      executionId: accountSnapshots.executionId,
    })
    .from(accountSnapshots)
    .orderBy(
      accountSnapshots.customerId,
      accountSnapshots.accountId,
      desc(accountSnapshots.collectedAt),
    );
  const deleted = await db
    .delete(accountSnapshots)
    .where(
      and(
        lt(accountSnapshots.collectedAt, before),
        sql`${accountSnapshots.executionId} not in ${newest}`,
      ),
    )
    .returning({ executionId: accountSnapshots.executionId });
  return deleted.length;
}

/**
 * Deletes the snapshots that event steps stored before `before`, except each account's newest and
 * those of stored results (the next analysis may re-analyse them to compare). Each step stores a
 * whole snapshot, the account patched: an account changed a hundred times a day would otherwise
 * keep a hundred snapshots a day for the whole retention, where its full analyses keep one.
 */
export async function deleteEventSnapshotsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.execute(sql`
    delete from ${accountSnapshots} s
    using ${executions} e
    where e.execution_id = s.execution_id
      and e.kind = 'event'
      and s.collected_at < ${before.toISOString()}::timestamptz
      and not exists (select 1 from ${analysisResults} r where r.execution_id = s.execution_id)
      and s.execution_id <> (
        select n.execution_id from ${accountSnapshots} n
        where n.customer_id = s.customer_id and n.account_id = s.account_id
        order by n.collected_at desc limit 1
      )
    returning s.execution_id`);
  return result.length;
}

/**
 * Which snapshot is the newest of each of a customer's accounts (endpoint 12 spans them all),
 * without their data: enough to tell whether a graph built before is still current.
 */
export async function latestSnapshotIdsOfCustomer(
  db: Executor,
  customerId: string,
): Promise<{ executionId: string; accountId: string }[]> {
  return db
    .selectDistinctOn([accountSnapshots.accountId], {
      executionId: accountSnapshots.executionId,
      accountId: accountSnapshots.accountId,
    })
    .from(accountSnapshots)
    .where(eq(accountSnapshots.customerId, customerId))
    .orderBy(accountSnapshots.accountId, desc(accountSnapshots.collectedAt));
}

/** The data (gzip-compressed JSON) of the snapshots of these executions, by execution ID. */
export async function snapshotDataOf(
  db: Executor,
  executionIds: readonly string[],
): Promise<Map<string, Buffer>> {
  if (executionIds.length === 0) return new Map();
  const rows = await db
    .select({ executionId: accountSnapshots.executionId, data: accountSnapshots.data })
    .from(accountSnapshots)
    .where(inArray(accountSnapshots.executionId, [...executionIds]));
  return new Map(rows.map((row) => [row.executionId, row.data]));
}
