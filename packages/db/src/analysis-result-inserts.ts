import { sql } from "drizzle-orm";
import type { StoredPrincipalResult, StoredResourceResult } from "./analysis-results.ts";
import type { Executor } from "./client.ts";
import { recordsetJson } from "./recordset-json.ts";
import { analysisPrincipals, analysisResources } from "./schema.ts";

/*
 * Results are inserted as one JSON parameter that Postgres turns into rows
 * (`json_to_recordset`), bytes as base64: drizzle's insert builder took about 8 µs per value,
 * 2 s of the largest account's analysis for its 10,000 principals and 4,400 resources.
 */

export async function insertPrincipalResults(
  db: Executor,
  executionId: string,
  rows: readonly StoredPrincipalResult[],
): Promise<void> {
  if (rows.length === 0) return;
  const json = recordsetJson(
    rows.map((row) => ({
      principal_arn: row.principalArn,
      principal_name: row.principalName,
      principal_type: row.principalType,
      iam_admin: row.iamAdmin,
      data: row.data.toString("base64"),
      details: row.details,
    })),
  );
  await db.execute(sql`
    insert into ${analysisPrincipals}
      (execution_id, principal_arn, principal_name, principal_type, iam_admin, data, details)
    select ${executionId}, r.principal_arn, r.principal_name, r.principal_type, r.iam_admin,
      decode(r.data, 'base64'), r.details
    from json_to_recordset(${json}::json) as r(principal_arn text, principal_name text,
      principal_type text, iam_admin text, data text, details jsonb)`);
}

export async function insertResourceResults(
  db: Executor,
  executionId: string,
  rows: readonly StoredResourceResult[],
): Promise<void> {
  if (rows.length === 0) return;
  const json = recordsetJson(
    rows.map((row) => ({
      resource_arn: row.resourceArn,
      resource_type: row.resourceType,
      resource_name: row.resourceName,
      confidentiality: row.confidentiality,
      data: row.data.toString("base64"),
      outside: row.outside.toString("base64"),
      holders: row.holders,
    })),
  );
  await db.execute(sql`
    insert into ${analysisResources}
      (execution_id, resource_arn, resource_type, resource_name, confidentiality, data, outside,
        holders)
    select ${executionId}, r.resource_arn, r.resource_type, r.resource_name, r.confidentiality,
      decode(r.data, 'base64'), decode(r.outside, 'base64'), r.holders
    from json_to_recordset(${json}::json) as r(resource_arn text, resource_type text,
      resource_name text, confidentiality text, data text, outside text, holders jsonb)`);
}

/**
 * An event step's resources whose reach only gains entries: the previous results' rows copied
 * in Postgres with `append` in place of the empty final block that ends their reach (`data`: a
 * deflate stream flushed, then `03 00`; `append` is another such stream) and their holders
 * replaced. Their bytes are never read by the worker. A row that does not end so is not copied.
 * Returns how many were.
 */
export async function appendResourceReach(
  db: Executor,
  from: string,
  to: string,
  rows: readonly { resourceArn: string; append: Buffer; holders: Record<string, number> }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const json = recordsetJson(
    rows.map((row) => ({
      resource_arn: row.resourceArn,
      append: row.append.toString("base64"),
      holders: row.holders,
    })),
  );
  const [appended] = await db.execute<{ n: number }>(sql`
    with appended as (
      insert into ${analysisResources}
        (execution_id, resource_arn, resource_type, resource_name, confidentiality, data,
          outside, holders)
      select ${to}, p.resource_arn, p.resource_type, p.resource_name, p.confidentiality,
        substring(p.data from 1 for length(p.data) - 2) || decode(r.append, 'base64'),
        p.outside, r.holders
      from json_to_recordset(${json}::json) as r(resource_arn text, append text, holders jsonb)
      join ${analysisResources} p on p.execution_id = ${from} and p.resource_arn = r.resource_arn
      where substring(p.data from length(p.data) - 1) = '\\x0300'::bytea
      returning 1)
    select count(*)::int as n from appended`);
  return appended?.n ?? 0;
}

/**
 * An event step's results: the previous results' principals and resources but those it remade,
 * copied row for row in Postgres (their bytes are never read by the worker). Returns how many
 * of each were copied.
 */
export async function copyAnalysisRows(
  db: Executor,
  from: string,
  to: string,
  except: { principals: readonly string[]; resources: readonly string[] },
): Promise<{ principals: number; resources: number }> {
  const [principals] = await db.execute<{ n: number }>(sql`
    with copied as (
      insert into ${analysisPrincipals}
        (execution_id, principal_arn, principal_name, principal_type, iam_admin, data, details)
      select ${to}, principal_arn, principal_name, principal_type, iam_admin, data, details
      from ${analysisPrincipals}
      where execution_id = ${from}
        and principal_arn not in
          (select jsonb_array_elements_text(${JSON.stringify(except.principals)}::jsonb))
      returning 1)
    select count(*)::int as n from copied`);
  const [resources] = await db.execute<{ n: number }>(sql`
    with copied as (
      insert into ${analysisResources}
        (execution_id, resource_arn, resource_type, resource_name, confidentiality, data, outside,
          holders)
      select ${to}, resource_arn, resource_type, resource_name, confidentiality, data, outside,
        holders
      from ${analysisResources}
      where execution_id = ${from}
        and resource_arn not in
          (select jsonb_array_elements_text(${JSON.stringify(except.resources)}::jsonb))
      returning 1)
    select count(*)::int as n from copied`);
  return { principals: principals?.n ?? 0, resources: resources?.n ?? 0 };
}
