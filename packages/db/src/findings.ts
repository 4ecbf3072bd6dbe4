import { and, asc, desc, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { findings } from "./schema.ts";

export type FindingStatus = "active" | "resolved";

export interface FindingRow {
  findingId: string;
  kind: string;
  subject: string;
  severity: string;
  status: FindingStatus;
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
  lastExecutionId: string;
  /** Title, description and the kind's details (thresholds, dates, counts). */
  detail: Record<string, unknown>;
}

export interface ObservedFinding {
  findingId: string;
  kind: string;
  subject: string;
  severity: string;
  detail: Record<string, unknown>;
}

type AccountKey = { customerId: string; accountId: string };

/**
 * Records what one analysis finds: a finding seen before keeps its first-seen time and gets this
 * analysis's time as last seen (reopened if it was resolved); the account's active findings this
 * analysis no longer has are resolved. Returns every finding touched, as stored after.
 */
export async function recordFindings(
  db: Executor,
  key: AccountKey & { executionId: string; analysisTime: Date },
  observed: readonly ObservedFinding[],
): Promise<{ current: FindingRow[]; resolved: FindingRow[] }> {
  return db.transaction(async (tx) => {
    const current: FindingRow[] = [];
    for (let i = 0; i < observed.length; i += 500) {
      const batch = observed.slice(i, i + 500);
      const rows = await tx
        .insert(findings)
        .values(
          batch.map((f) => ({
            ...key,
            ...f,
            status: "active",
            firstSeen: key.analysisTime,
            lastSeen: key.analysisTime,
            lastExecutionId: key.executionId,
          })),
        )
        .onConflictDoUpdate({
          target: [findings.customerId, findings.accountId, findings.findingId],
          set: {
            status: "active",
            lastSeen: key.analysisTime,
            resolvedAt: null,
            lastExecutionId: key.executionId,
            severity: sql`excluded.severity`,
            detail: sql`excluded.detail`,
            // A resolved finding that holds again starts over.
            firstSeen: sql`case when ${findings.status} = 'resolved' then excluded.first_seen else ${findings.firstSeen} end`,
          },
        })
        .returning();
      current.push(...(rows as FindingRow[]));
    }
    const resolved = await tx
      .update(findings)
      .set({ status: "resolved", resolvedAt: key.analysisTime, lastExecutionId: key.executionId })
      .where(
        and(
          eq(findings.customerId, key.customerId),
          eq(findings.accountId, key.accountId),
          eq(findings.status, "active"),
          // Every finding this analysis observed carries its execution now.
          ne(findings.lastExecutionId, key.executionId),
        ),
      )
      .returning();
    return { current, resolved: resolved as FindingRow[] };
  });
}

export interface FindingCursor {
  lastSeen: Date;
  findingId: string;
}

/** An account's findings, newest seen first; `status` filters, `after` continues a listing. */
export async function listFindings(
  db: Executor,
  query: AccountKey & {
    status?: FindingStatus;
    kinds?: readonly string[];
    after?: FindingCursor;
    limit: number;
  },
): Promise<{ findings: FindingRow[]; next?: FindingCursor }> {
  const { after } = query;
  const rows = await db
    .select()
    .from(findings)
    .where(
      and(
        eq(findings.customerId, query.customerId),
        eq(findings.accountId, query.accountId),
        query.status ? eq(findings.status, query.status) : undefined,
        query.kinds && query.kinds.length > 0
          ? inArray(findings.kind, [...query.kinds])
          : undefined,
        after
          ? or(
              lt(findings.lastSeen, after.lastSeen),
              and(
                eq(findings.lastSeen, after.lastSeen),
                sql`${findings.findingId} > ${after.findingId}`,
              ),
            )
          : undefined,
      ),
    )
    .orderBy(desc(findings.lastSeen), asc(findings.findingId))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit) as FindingRow[];
  const last = page[page.length - 1];
  return {
    findings: page,
    ...(rows.length > query.limit && last
      ? { next: { lastSeen: last.lastSeen, findingId: last.findingId } }
      : {}),
  };
}
