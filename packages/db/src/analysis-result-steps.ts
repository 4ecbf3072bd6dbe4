import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { PRINCIPAL_COLUMNS, RESOURCE_COLUMNS } from "./analysis-result-columns.ts";
import type {
  StoredPrincipalResult,
  StoredResourceHead,
  StoredResourceResult,
} from "./analysis-results.ts";
import type { Executor } from "./client.ts";
import { analysisPrincipals, analysisResources, analysisResults } from "./schema.ts";

/**
 * An event step's results once every principal and resource is stored: the dictionary of the
 * results it was made from, copied as it is, and what the step added to it.
 */
export async function finishSteppedResult(
  db: Executor,
  executionId: string,
  finished: { principals: number; resources: number; from: string; added: unknown },
): Promise<void> {
  await db.execute(sql`
    update ${analysisResults} set principals = ${finished.principals},
      resources = ${finished.resources},
      reach_dictionary = (select reach_dictionary from ${analysisResults}
        where execution_id = ${finished.from}),
      reach_dictionary_added = ${JSON.stringify(finished.added)}::jsonb
    where execution_id = ${executionId}`);
}

/** What an event step added to the reach dictionary it kept; null for a whole analysis. */
export async function analysisReachDictionaryAdded(
  db: Executor,
  executionId: string,
): Promise<unknown> {
  const [row] = await db
    .select({ added: analysisResults.reachDictionaryAdded })
    .from(analysisResults)
    .where(eq(analysisResults.executionId, executionId));
  return row?.added ?? null;
}

/** The named principals of an execution's results, in ARN order (code points). */
export async function principalResultsOf(
  db: Executor,
  executionId: string,
  arns: readonly string[],
): Promise<StoredPrincipalResult[]> {
  if (arns.length === 0) return [];
  return db
    .select(PRINCIPAL_COLUMNS)
    .from(analysisPrincipals)
    .where(
      and(
        eq(analysisPrincipals.executionId, executionId),
        inArray(analysisPrincipals.principalArn, [...arns]),
      ),
    )
    .orderBy(asc(analysisPrincipals.principalArn));
}

const resourcesNamed = (executionId: string, arns: readonly string[]) =>
  and(
    eq(analysisResources.executionId, executionId),
    inArray(analysisResources.resourceArn, [...arns]),
  );

/** The named resources of an execution's results, in ARN order (code points). */
export async function resourceResultsOf(
  db: Executor,
  executionId: string,
  arns: readonly string[],
): Promise<StoredResourceResult[]> {
  if (arns.length === 0) return [];
  return db
    .select(RESOURCE_COLUMNS)
    .from(analysisResources)
    .where(resourcesNamed(executionId, arns))
    .orderBy(asc(analysisResources.resourceArn));
}

/** `resourceResultsOf` without their reach: the columns, the outside reach and the holders. */
export async function resourceHeadsOf(
  db: Executor,
  executionId: string,
  arns: readonly string[],
): Promise<StoredResourceHead[]> {
  if (arns.length === 0) return [];
  const { data: _reach, ...columns } = RESOURCE_COLUMNS;
  return db
    .select(columns)
    .from(analysisResources)
    .where(resourcesNamed(executionId, arns))
    .orderBy(asc(analysisResources.resourceArn));
}
