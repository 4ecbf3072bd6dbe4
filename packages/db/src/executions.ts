import type {
  ExecutionFailure,
  ExecutionKind,
  ExecutionRecord,
  ExecutionStage,
  ExecutionStatus,
  ExecutionWarning,
} from "@sightline/domain";
import { and, count, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { sqlStateOf } from "./errors.ts";
import { executionCredentials, executions } from "./schema.ts";

export interface NewExecution {
  executionId: string;
  kind: ExecutionKind;
  customerId: string;
  accountId: string;
  partnerId?: string;
  partnerCustomerId?: string;
  provider: string;
  /** `import`: a snapshot stored by hand (`sightline snapshot import`), not collected. */
  authMethod: "config" | "cvs" | "credential" | "import";
}

/** An own credential, already encrypted (see the services' envelope). */
export interface EncryptedCredential {
  keySource: "local" | "kms";
  masterKeyId: string;
  wrappedKey: Buffer;
  iv: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
  expiresAt: Date;
}

export type InsertExecutionResult =
  | { kind: "inserted" }
  /** The account already has a queued or running execution. */
  | { kind: "active"; executionId: string }
  /** The ID was taken (its random suffix collided): draw another. */
  | { kind: "duplicate-id" };

const ACTIVE: ExecutionStatus[] = ["queued", "running"];
const UNIQUE_VIOLATION = "23505";

/**
 * Inserts an execution, its encrypted credential if any, and lets `enqueue` write its job, all
 * in one transaction: there is never a job without a row, nor a row without its job.
 */
export async function insertExecution(
  db: Executor,
  input: { execution: NewExecution; credential?: EncryptedCredential },
  enqueue: (tx: Executor) => Promise<void>,
): Promise<InsertExecutionResult> {
  try {
    await db.transaction(async (tx) => {
      await tx.insert(executions).values(input.execution);
      if (input.credential)
        await tx
          .insert(executionCredentials)
          .values({ executionId: input.execution.executionId, ...input.credential });
      await enqueue(tx);
    });
    return { kind: "inserted" };
  } catch (error) {
    if (sqlStateOf(error) !== UNIQUE_VIOLATION) throw error;
    const active = await findActiveExecution(db, input.execution);
    return active ? { kind: "active", executionId: active } : { kind: "duplicate-id" };
  }
}

/**
 * The account's queued or running full analysis (or, with `event`, its event step): each kind
 * has one at most at a time.
 */
export async function findActiveExecution(
  db: Executor,
  key: { customerId: string; accountId: string; kind?: string },
  lane: "full" | "event" = key.kind === "event" ? "event" : "full",
): Promise<string | undefined> {
  const [row] = await db
    .select({ executionId: executions.executionId })
    .from(executions)
    .where(
      and(
        eq(executions.customerId, key.customerId),
        eq(executions.accountId, key.accountId),
        inArray(executions.status, ACTIVE),
        lane === "event" ? eq(executions.kind, "event") : ne(executions.kind, "event"),
      ),
    );
  return row?.executionId;
}

/** On-demand executions of an account created since `since` (the plan's daily limit). */
export async function countOnDemandExecutions(
  db: Executor,
  key: { customerId: string; accountId: string },
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(executions)
    .where(
      and(
        eq(executions.customerId, key.customerId),
        eq(executions.accountId, key.accountId),
        eq(executions.kind, "ondemand"),
        // A snapshot imported by hand (`sightline snapshot import`) is no analysis.
        ne(executions.authMethod, "import"),
        gte(executions.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

type Row = typeof executions.$inferSelect;
export type ExecutionRow = Row;

export function toExecutionRecord(
  row: Row,
  counts?: { changes: number | null; findings: number | null },
): ExecutionRecord {
  return {
    executionId: row.executionId,
    kind: row.kind as ExecutionKind,
    status: row.status as ExecutionStatus,
    customerId: row.customerId,
    accountId: row.accountId,
    createdAt: row.createdAt.toISOString(),
    ...(row.startedAt ? { startedAt: row.startedAt.toISOString() } : {}),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
    reports: row.reportKeys,
    warnings: row.warnings,
    ...(row.failureCode
      ? { failure: { code: row.failureCode, message: row.failureMessage ?? "" } }
      : {}),
    ...(counts?.changes != null ? { changes: counts.changes } : {}),
    ...(counts?.findings != null ? { findings: counts.findings } : {}),
    ...(row.status === "running" && row.stage ? { stage: row.stage as ExecutionStage } : {}),
    ...(row.status === "running" && row.progress ? { progress: row.progress } : {}),
  };
}

/**
 * What a running attempt is doing now (and how far), for a person watching. Not under the lease
 * (a dropped write is fine), but only while `attempt`, when given, is the execution's latest.
 */
export async function setExecutionStage(
  db: Executor,
  executionId: string,
  stage: ExecutionStage,
  progress?: { done: number; total: number; unit: string } | undefined,
  attempt?: number,
): Promise<void> {
  await db
    .update(executions)
    .set({ stage, progress: progress ?? null })
    .where(
      and(
        eq(executions.executionId, executionId),
        eq(executions.status, "running"),
        // Only the attempt running now: one that lost its lease and woke up shows nothing.
        attempt === undefined ? undefined : eq(executions.attempts, attempt),
      ),
    );
}

export async function getExecution(db: Executor, executionId: string): Promise<Row | undefined> {
  const [row] = await db.select().from(executions).where(eq(executions.executionId, executionId));
  return row;
}

/** The account's latest executions, newest first. */
export async function listExecutions(
  db: Executor,
  key: { customerId: string; accountId: string },
  limit: number,
): Promise<Row[]> {
  return db
    .select()
    .from(executions)
    .where(and(eq(executions.customerId, key.customerId), eq(executions.accountId, key.accountId)))
    .orderBy(desc(executions.createdAt))
    .limit(limit);
}

/** A worker takes the execution: `running`, one more attempt. Undefined if it already ended. */
export async function startExecution(db: Executor, executionId: string): Promise<Row | undefined> {
  const [row] = await db
    .update(executions)
    .set({
      status: "running",
      attempts: sql`${executions.attempts} + 1`,
      startedAt: sql`coalesce(${executions.startedAt}, now())`,
    })
    .where(and(eq(executions.executionId, executionId), inArray(executions.status, ACTIVE)))
    .returning();
  return row;
}

/** An attempt failed in a way that may pass: queued again, with the reason as a warning. */
export async function requeueExecution(
  db: Executor,
  executionId: string,
  warning: ExecutionWarning,
): Promise<void> {
  await db
    .update(executions)
    .set({
      status: "queued",
      warnings: sql`${executions.warnings} || ${JSON.stringify([warning])}::jsonb`,
    })
    .where(and(eq(executions.executionId, executionId), eq(executions.status, "running")));
}

/** Records the outcome; the credential, if one is left, goes with it. */
export async function finishExecution(
  db: Executor,
  executionId: string,
  outcome:
    | { status: "succeeded"; reportKeys: string[]; warnings: ExecutionWarning[] }
    | { status: "failed"; failure: ExecutionFailure; warnings: ExecutionWarning[] },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(executions)
      .set({
        status: outcome.status,
        finishedAt: sql`now()`,
        warnings: sql`${executions.warnings} || ${JSON.stringify(outcome.warnings)}::jsonb`,
        ...(outcome.status === "succeeded"
          ? { reportKeys: outcome.reportKeys }
          : { failureCode: outcome.failure.code, failureMessage: outcome.failure.message }),
      })
      .where(eq(executions.executionId, executionId));
    await tx.delete(executionCredentials).where(eq(executionCredentials.executionId, executionId));
  });
}

/**
 * The minute of the execution's dated report keys, chosen once: the first minute from
 * `analysisTime`'s that no other execution of the account holds (a retry keeps its own).
 */
export async function assignReportMinute(
  db: Executor,
  executionId: string,
  analysisTime: Date,
): Promise<Date> {
  const rows = await db.execute<{ report_minute: Date | string }>(sql`
    update ${executions} e set report_minute = coalesce(e.report_minute, (
      select m from generate_series(
        date_trunc('minute', ${analysisTime.toISOString()}::timestamptz),
        date_trunc('minute', ${analysisTime.toISOString()}::timestamptz) + interval '1 day',
        interval '1 minute') m
      where not exists (
        select 1 from ${executions} o
        where o.customer_id = e.customer_id and o.account_id = e.account_id
          and o.report_minute = m and o.execution_id <> e.execution_id)
      order by m limit 1))
    where e.execution_id = ${executionId}
    returning e.report_minute`);
  const minute = rows[0]?.report_minute;
  if (!minute) throw new Error(`execution ${executionId} has no free report minute`);
  return new Date(minute);
}
