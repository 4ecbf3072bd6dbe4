import { and, asc, desc, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { recordsetJson } from "./recordset-json.ts";
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
 * analysis no longer has are resolved. Returns what it observed and what it resolved, as stored
 * after, and how many of the account's findings are active now.
 */
export async function recordFindings(
  db: Executor,
  key: AccountKey & { executionId: string; analysisTime: Date },
  observed: readonly ObservedFinding[],
  /**
   * An event step's findings: only these were looked at again, each a kind and an ARN (`kind
   * arn`; a finding's subject is an ARN, or an ARN, `#` and a part of it); the account's other
   * active findings hold as they were.
   */
  only?: readonly string[],
): Promise<{ current: FindingRow[]; resolved: FindingRow[]; active: number }> {
  return db.transaction(async (tx) => {
    const time = key.analysisTime.toISOString();
    if (only)
      await tx.execute(sql`
        update ${findings} set last_seen = ${time}::timestamptz,
          last_execution_id = ${key.executionId}
        where customer_id = ${key.customerId} and account_id = ${key.accountId}
          and status = 'active'
          and kind || ' ' || split_part(subject, '#', 1) not in
            (select jsonb_array_elements_text(${JSON.stringify(only)}::jsonb))`);
    // One JSON parameter per batch, made rows by Postgres: drizzle's insert builder took about
    // 8 µs per value, 1.5 s for the largest account's 15,800 findings.
    for (let i = 0; i < observed.length; i += 2_000) {
      const json = recordsetJson(
        observed.slice(i, i + 2_000).map((f) => ({
          finding_id: f.findingId,
          kind: f.kind,
          subject: f.subject,
          severity: f.severity,
          detail: f.detail,
        })),
      );
      await tx.execute(sql`
        insert into ${findings} (customer_id, account_id, finding_id, kind, subject, severity,
          status, first_seen, last_seen, resolved_at, last_execution_id, detail)
        select ${key.customerId}, ${key.accountId}, r.finding_id, r.kind, r.subject, r.severity,
          'active', ${time}::timestamptz, ${time}::timestamptz, null, ${key.executionId}, r.detail
        from json_to_recordset(${json}::json) as r(finding_id text, kind text, subject text,
          severity text, detail jsonb)
        on conflict (customer_id, account_id, finding_id) do update set
          status = 'active',
          last_seen = excluded.last_seen,
          resolved_at = null,
          last_execution_id = excluded.last_execution_id,
          severity = excluded.severity,
          detail = excluded.detail,
          -- A resolved finding that holds again starts over.
          first_seen = case when ${findings}.status = 'resolved' then excluded.first_seen
            else ${findings}.first_seen end`);
    }
    // What this analysis observed, as stored now, in the order observed. (An event step's
    // findings that hold as they were are counted, not read: a step needs their number only.)
    const order = new Map(observed.map((f, i) => [f.findingId, i]));
    const current = (
      observed.length === 0
        ? []
        : ((await tx
            .select()
            .from(findings)
            .where(
              and(
                eq(findings.customerId, key.customerId),
                eq(findings.accountId, key.accountId),
                eq(findings.lastExecutionId, key.executionId),
                observed.length <= 2_000
                  ? inArray(
                      findings.findingId,
                      observed.map((f) => f.findingId),
                    )
                  : undefined,
              ),
            )) as FindingRow[])
    )
      .filter((row) => order.has(row.findingId))
      .sort(
        (a, b) =>
          (order.get(a.findingId) ?? order.size) - (order.get(b.findingId) ?? order.size) ||
          (a.findingId < b.findingId ? -1 : 1),
      );
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
    const [count] = only
      ? await tx.execute<{ n: number }>(sql`
          select count(*)::int as n from ${findings} where customer_id = ${key.customerId}
            and account_id = ${key.accountId} and status = 'active'`)
      : [{ n: current.length }];
    return { current, resolved: resolved as FindingRow[], active: Number(count?.n ?? 0) };
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
