import { and, asc, desc, eq, gt, ilike, inArray, ne, sql } from "drizzle-orm";
import { PRINCIPAL_COLUMNS, RESOURCE_COLUMNS } from "./analysis-result-columns.ts";
import type { Executor } from "./client.ts";
import { analysisPrincipals, analysisResources, analysisResults, executions } from "./schema.ts";

/** One analysis's stored results, without its principals and resources. */
export interface AnalysisResultHeader {
  executionId: string;
  customerId: string;
  accountId: string;
  provider: string;
  analysisTime: Date;
  resultsVersion: string;
  principals: number;
  resources: number;
  previousExecutionId: string | null;
  changes: number | null;
  findings: number | null;
}

export interface StoredPrincipalResult {
  principalArn: string;
  principalName: string;
  principalType: string;
  iamAdmin: string;
  /** Deflated JSON of what grants admin and the access. */
  data: Buffer;
  /** Last use and credentials. */
  details: unknown;
}

export interface StoredResourceResult {
  resourceArn: string;
  resourceType: string;
  resourceName: string;
  confidentiality: string;
  /**
   * Deflated: its service and tags as JSON, then who reaches it, numbered after the analysis's
   * reach dictionary (`analysisReachDictionary`).
   */
  data: Buffer;
  /** Deflated JSON of its service and tags, and who reaches it from outside the account. */
  outside: Buffer;
  /** How many principals hold each risky capability on it. */
  holders: Readonly<Record<string, number>>;
}

/** A stored resource without its reach (`data`): what an event step appending to it reads. */
export type StoredResourceHead = Omit<StoredResourceResult, "data">;

/**
 * Starts the results of an execution: a retried execution's earlier (partial) results are
 * dropped first, so that one execution never has two.
 */
export async function beginAnalysisResult(
  db: Executor,
  header: Omit<AnalysisResultHeader, "principals" | "resources" | "changes" | "findings">,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(analysisResults).where(eq(analysisResults.executionId, header.executionId));
    await tx.insert(analysisResults).values({ ...header, principals: 0, resources: 0 });
  });
}

/** Records the counts and the reach dictionary once every principal and resource is stored. */
export async function finishAnalysisResult(
  db: Executor,
  executionId: string,
  finished: { principals: number; resources: number; reachDictionary: Buffer },
): Promise<void> {
  await db
    .update(analysisResults)
    .set(finished)
    .where(eq(analysisResults.executionId, executionId));
}

/** What an execution's resources' reach refers to by number (deflated JSON); undefined if none. */
export async function analysisReachDictionary(
  db: Executor,
  executionId: string,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ dictionary: analysisResults.reachDictionary })
    .from(analysisResults)
    .where(eq(analysisResults.executionId, executionId));
  return row?.dictionary ?? undefined;
}

/** What the comparison with the previous analysis found (`previous` null: a baseline). */
export async function recordComparison(
  db: Executor,
  executionId: string,
  outcome: { previousExecutionId: string | null; changes: number; findings: number },
): Promise<void> {
  await db.update(analysisResults).set(outcome).where(eq(analysisResults.executionId, executionId));
}

const HEADER = {
  executionId: analysisResults.executionId,
  customerId: analysisResults.customerId,
  accountId: analysisResults.accountId,
  provider: analysisResults.provider,
  analysisTime: analysisResults.analysisTime,
  resultsVersion: analysisResults.resultsVersion,
  principals: analysisResults.principals,
  resources: analysisResults.resources,
  previousExecutionId: analysisResults.previousExecutionId,
  changes: analysisResults.changes,
  findings: analysisResults.findings,
};

/**
 * The newest results of an account from a succeeded execution (what the console reads); with
 * `executionId`, the newest other than that one (what an analysis is compared with).
 */
export async function latestAnalysisResult(
  db: Executor,
  key: { customerId: string; accountId: string; executionId?: string },
): Promise<AnalysisResultHeader | undefined> {
  const [row] = await db
    .select(HEADER)
    .from(analysisResults)
    .innerJoin(executions, eq(executions.executionId, analysisResults.executionId))
    .where(
      and(
        eq(analysisResults.customerId, key.customerId),
        eq(analysisResults.accountId, key.accountId),
        key.executionId === undefined
          ? undefined
          : ne(analysisResults.executionId, key.executionId),
        eq(executions.status, "succeeded"),
      ),
    )
    .orderBy(desc(analysisResults.analysisTime))
    .limit(1);
  return row;
}

/** What an analysis is compared with: the account's newest succeeded results but its own. */
export const previousAnalysisResult = (
  db: Executor,
  key: { customerId: string; accountId: string; executionId: string },
): Promise<AnalysisResultHeader | undefined> => latestAnalysisResult(db, key);

export async function getAnalysisResult(
  db: Executor,
  executionId: string,
): Promise<AnalysisResultHeader | undefined> {
  const [row] = await db
    .select(HEADER)
    .from(analysisResults)
    .where(eq(analysisResults.executionId, executionId));
  return row;
}

/** The counts of changes and findings of executions, for their records. */
export async function comparisonCounts(
  db: Executor,
  executionIds: readonly string[],
): Promise<Map<string, { changes: number | null; findings: number | null }>> {
  if (executionIds.length === 0) return new Map();
  const rows = await db
    .select({
      executionId: analysisResults.executionId,
      changes: analysisResults.changes,
      findings: analysisResults.findings,
    })
    .from(analysisResults)
    .where(inArray(analysisResults.executionId, [...executionIds]));
  return new Map(rows.map(({ executionId, ...counts }) => [executionId, counts]));
}

/** Every page of a keyset-paginated read, `page(after)` giving the rows after a key. */
async function* allPages<T>(
  page: (after: string | undefined) => Promise<T[]>,
  keyOf: (row: T) => string,
  pageSize: number,
): AsyncGenerator<T[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (rows.length < pageSize || last === undefined) return;
    after = keyOf(last);
  }
}

/**
 * The principals of an execution's results in code-point order of their ARN (the column's
 * `COLLATE "C"`), a page at a time: a reader holds one page, never the whole account.
 */
export function principalResultPages(
  db: Executor,
  executionId: string,
  pageSize = 200,
): AsyncGenerator<StoredPrincipalResult[]> {
  return allPages(
    (after) =>
      analysisPrincipalPage(db, executionId, { ...(after ? { after } : {}), limit: pageSize }),
    (row) => row.principalArn,
    pageSize,
  );
}

/** The resources of an execution's results, as `principalResultPages` reads principals. */
export function resourceResultPages(
  db: Executor,
  executionId: string,
  pageSize = 200,
): AsyncGenerator<StoredResourceResult[]> {
  return allPages(
    (after) =>
      db
        .select(RESOURCE_COLUMNS)
        .from(analysisResources)
        .where(
          and(
            eq(analysisResources.executionId, executionId),
            after === undefined ? undefined : gt(analysisResources.resourceArn, after),
          ),
        )
        .orderBy(asc(analysisResources.resourceArn))
        .limit(pageSize),
    (row) => row.resourceArn,
    pageSize,
  );
}

/** `text` as a LIKE pattern matching itself anywhere. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of an execution's principals in ARN order (code points), filtered: by IAM-admin state,
 * by a text their ARN contains (case-insensitive); `after` an ARN of the previous page.
 */
export async function analysisPrincipalPage(
  db: Executor,
  executionId: string,
  query: { iamAdmin?: string; contains?: string; after?: string; limit: number },
): Promise<StoredPrincipalResult[]> {
  return db
    .select(PRINCIPAL_COLUMNS)
    .from(analysisPrincipals)
    .where(
      and(
        eq(analysisPrincipals.executionId, executionId),
        query.iamAdmin === undefined ? undefined : eq(analysisPrincipals.iamAdmin, query.iamAdmin),
        query.contains === undefined
          ? undefined
          : ilike(analysisPrincipals.principalArn, containing(query.contains)),
        query.after === undefined ? undefined : gt(analysisPrincipals.principalArn, query.after),
      ),
    )
    .orderBy(asc(analysisPrincipals.principalArn))
    .limit(query.limit);
}

/** The listed columns of a resource, without its reach. */
export interface ListedResourceResult {
  resourceArn: string;
  resourceType: string;
  resourceName: string;
  confidentiality: string;
}

/**
 * A page of an execution's resources in ARN order, without their reach (a picker's list):
 * filtered by a text their ARN contains (case-insensitive); `after` an ARN of the previous page.
 */
export async function analysisResourcePage(
  db: Executor,
  executionId: string,
  query: { contains?: string; after?: string; limit: number },
): Promise<ListedResourceResult[]> {
  return db
    .select({
      resourceArn: analysisResources.resourceArn,
      resourceType: analysisResources.resourceType,
      resourceName: analysisResources.resourceName,
      confidentiality: analysisResources.confidentiality,
    })
    .from(analysisResources)
    .where(
      and(
        eq(analysisResources.executionId, executionId),
        query.contains === undefined
          ? undefined
          : ilike(analysisResources.resourceArn, containing(query.contains)),
        query.after === undefined ? undefined : gt(analysisResources.resourceArn, query.after),
      ),
    )
    .orderBy(asc(analysisResources.resourceArn))
    .limit(query.limit);
}

export async function getAnalysisPrincipal(
  db: Executor,
  executionId: string,
  principalArn: string,
): Promise<StoredPrincipalResult | undefined> {
  const [row] = await db
    .select(PRINCIPAL_COLUMNS)
    .from(analysisPrincipals)
    .where(
      and(
        eq(analysisPrincipals.executionId, executionId),
        eq(analysisPrincipals.principalArn, principalArn),
      ),
    );
  return row;
}

export async function getAnalysisResource(
  db: Executor,
  executionId: string,
  resourceArn: string,
): Promise<StoredResourceResult | undefined> {
  const [row] = await db
    .select(RESOURCE_COLUMNS)
    .from(analysisResources)
    .where(
      and(
        eq(analysisResources.executionId, executionId),
        eq(analysisResources.resourceArn, resourceArn),
      ),
    );
  return row;
}

/**
 * Deletes the results of each account but its `keep` newest from succeeded executions (the
 * newest is what the next analysis compares with and the console shows), and those of failed
 * executions. Returns how many analyses' results went.
 */
export async function pruneAnalysisResults(db: Executor, keep = 2): Promise<number> {
  const deleted = await db.execute(sql`
    delete from ${analysisResults} r
    using (
      select a.execution_id, e.status,
             row_number() over (
               partition by a.customer_id, a.account_id, e.status = 'succeeded'
               order by a.analysis_time desc) as n
      from ${analysisResults} a join ${executions} e on e.execution_id = a.execution_id
    ) ranked
    where r.execution_id = ranked.execution_id
      and (ranked.status = 'failed' or (ranked.status = 'succeeded' and ranked.n > ${keep}))
    returning r.execution_id`);
  return deleted.length;
}
