import { and, asc, eq, gt, gte, or, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { recordsetJson } from "./recordset-json.ts";
import { accessChanges, executions } from "./schema.ts";

export interface StoredAccessChange {
  changeId: string;
  kind: string;
  /** The change as the API and the report give it (`AccessChange` of `@sightline/domain`). */
  change: Record<string, unknown>;
  /** What made it (`ChangeCause` of `@sightline/domain`). */
  cause?: Record<string, unknown>;
}

/** Drops an execution's changes (a retried execution computes the same ones again). */
export async function deleteAccessChanges(db: Executor, executionId: string): Promise<void> {
  await db.delete(accessChanges).where(eq(accessChanges.executionId, executionId));
}

/**
 * Adds a batch of an execution's changes; `firstSeq` numbers them in report order. One JSON
 * parameter for the batch (as the results' rows): drizzle's builder makes one parameter of each
 * column of each row, which cost more CPU than the step's analysis when a change (a new
 * administrator) makes thousands of rows.
 */
export async function insertAccessChanges(
  db: Executor,
  execution: { executionId: string; customerId: string; accountId: string; analysisTime: Date },
  changes: readonly StoredAccessChange[],
  firstSeq: number,
): Promise<void> {
  if (changes.length === 0) return;
  const json = recordsetJson(
    changes.map((change, i) => ({
      seq: firstSeq + i,
      change_id: change.changeId,
      kind: change.kind,
      change: change.change,
      cause: change.cause ?? null,
    })),
  );
  await db.execute(sql`
    insert into ${accessChanges}
      (execution_id, customer_id, account_id, analysis_time, seq, change_id, kind, change, cause)
    select ${execution.executionId}, ${execution.customerId}, ${execution.accountId},
      ${execution.analysisTime.toISOString()}::timestamptz, r.seq, r.change_id, r.kind, r.change,
      r.cause
    from json_to_recordset(${json}::json)
      as r(seq integer, change_id text, kind text, change jsonb, cause jsonb)`);
}

/** Where a page of changes ends: the next page starts after it. */
export interface ChangeCursor {
  analysisTime: Date;
  seq: number;
}

export interface ChangePage {
  changes: {
    executionId: string;
    analysisTime: Date;
    change: Record<string, unknown>;
    /** Absent for changes stored before causes were. */
    cause?: Record<string, unknown>;
  }[];
  next?: ChangeCursor;
}

/**
 * An account's changes from analyses at or after `since`, oldest first, in each analysis's report
 * order; `after` continues a listing.
 */
export async function listAccessChanges(
  db: Executor,
  query: {
    customerId: string;
    accountId: string;
    since?: Date;
    after?: ChangeCursor;
    limit: number;
  },
): Promise<ChangePage> {
  const { after } = query;
  const rows = await db
    .select({
      executionId: accessChanges.executionId,
      analysisTime: accessChanges.analysisTime,
      seq: accessChanges.seq,
      change: accessChanges.change,
      cause: accessChanges.cause,
    })
    .from(accessChanges)
    // A failed execution's changes are found again by the next analysis: only delivered ones.
    .innerJoin(executions, eq(executions.executionId, accessChanges.executionId))
    .where(
      and(
        eq(executions.status, "succeeded"),
        eq(accessChanges.customerId, query.customerId),
        eq(accessChanges.accountId, query.accountId),
        query.since ? gte(accessChanges.analysisTime, query.since) : undefined,
        after
          ? or(
              gt(accessChanges.analysisTime, after.analysisTime),
              and(
                eq(accessChanges.analysisTime, after.analysisTime),
                gt(accessChanges.seq, after.seq),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(asc(accessChanges.analysisTime), asc(accessChanges.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    changes: page.map(({ executionId, analysisTime, change, cause }) => ({
      executionId,
      analysisTime,
      change: change as Record<string, unknown>,
      ...(cause ? { cause: cause as Record<string, unknown> } : {}),
    })),
    ...(rows.length > query.limit && last
      ? { next: { analysisTime: last.analysisTime, seq: last.seq } }
      : {}),
  };
}

/** How many changes each kind has in one execution (for logs and the execution record). */
export async function countAccessChanges(db: Executor, executionId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(accessChanges)
    .where(eq(accessChanges.executionId, executionId));
  return row?.n ?? 0;
}
