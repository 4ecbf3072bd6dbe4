import { eq, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { analysisResults } from "./schema.ts";

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
