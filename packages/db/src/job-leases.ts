import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { rawQuery } from "./raw-query.ts";
import { jobLeases, lostLeaseCounts } from "./schema-queue.ts";

/** pg-boss's schema is named in SQL text: only a plain identifier is accepted. */
function queueTable(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`not a queue schema: ${schema}`);
  return `"${schema}".job`;
}

export interface JobLeaseInput {
  jobId: string;
  queue: string;
  queueSchema: string;
  owner: string;
  executionId?: string;
  /** Earlier attempts of this job that lost their lease. */
  losses?: number;
  lostAfterSeconds: number;
}

/** Takes the lease of a job its worker has just started. */
export async function acquireJobLease(db: Executor, input: JobLeaseInput): Promise<void> {
  const expiresAt = sql`now() + make_interval(secs => ${input.lostAfterSeconds})`;
  await db
    .insert(jobLeases)
    .values({
      jobId: input.jobId,
      queue: input.queue,
      queueSchema: input.queueSchema,
      owner: input.owner,
      executionId: input.executionId ?? null,
      losses: input.losses ?? 0,
      expiresAt,
    })
    .onConflictDoUpdate({
      target: jobLeases.jobId,
      set: { owner: input.owner, renewedAt: sql`now()`, expiresAt },
    });
}

/**
 * Names the execution a running job works on once the job has found it (an event step's job
 * carries only its account): should the lease be lost, the reaper puts that execution back to
 * `queued` with a `WORKER_LOST` warning, as it does an analysis's.
 */
export async function setJobLeaseExecution(
  db: Executor,
  jobId: string,
  executionId: string,
): Promise<void> {
  await db.update(jobLeases).set({ executionId }).where(eq(jobLeases.jobId, jobId));
}

/** Renews this owner's leases; answers the job IDs still held (a missing one was lost). */
export async function renewJobLeases(
  db: Executor,
  input: { owner: string; jobIds: readonly string[]; lostAfterSeconds: number },
): Promise<Set<string>> {
  if (input.jobIds.length === 0) return new Set();
  const rows = await db
    .update(jobLeases)
    .set({
      renewedAt: sql`now()`,
      expiresAt: sql`now() + make_interval(secs => ${input.lostAfterSeconds})`,
    })
    .where(and(eq(jobLeases.owner, input.owner), inArray(jobLeases.jobId, [...input.jobIds])))
    .returning({ jobId: jobLeases.jobId });
  return new Set(rows.map((r) => r.jobId));
}

/** The owner of a lease whose attempt has ended, left to lapse (`releaseJobLease`). */
export const ENDED_LEASE_OWNER = "ended";

/**
 * Gives a lease up once its attempt has ended (whatever the outcome). With `graceSeconds`, the
 * lease is not deleted but lapses that long after, held by no attempt: the queue records the
 * job's outcome just after, and should the database be gone just then, the job would stay
 * active until pg-boss's expiry (45 minutes); instead the reaper finds it still active and puts
 * it back. Once the outcome is recorded, the reaper only drops the row.
 */
export async function releaseJobLease(
  db: Executor,
  jobId: string,
  owner: string,
  graceSeconds = 0,
): Promise<void> {
  const held = and(eq(jobLeases.jobId, jobId), eq(jobLeases.owner, owner));
  if (graceSeconds <= 0) {
    await db.delete(jobLeases).where(held);
    return;
  }
  await db
    .update(jobLeases)
    .set({
      owner: ENDED_LEASE_OWNER,
      expiresAt: sql`now() + make_interval(secs => ${graceSeconds})`,
    })
    .where(held);
}

/**
 * Lets this owner's leases of `jobIds` lapse now (a worker handing its running jobs back as it
 * stops); answers those of them still leased (`reapLostLeases` takes them back).
 */
export async function expireJobLeases(
  db: Executor,
  input: { owner: string; jobIds: readonly string[] },
): Promise<string[]> {
  if (input.jobIds.length === 0) return [];
  const rows = await db
    .update(jobLeases)
    .set({ expiresAt: sql`now() - interval '1 hour'` })
    .where(and(eq(jobLeases.owner, input.owner), inArray(jobLeases.jobId, [...input.jobIds])))
    .returning({ jobId: jobLeases.jobId });
  return rows.map((r) => r.jobId);
}

/**
 * The fence: true while the job's lease is held, and then the row stays locked until the
 * transaction `tx` ends, so that no reaper can take the job back while the attempt writes.
 */
export async function holdsJobLease(tx: Executor, jobId: string, owner: string): Promise<boolean> {
  const rows = await tx.execute(
    sql`select 1 from ${jobLeases} where ${jobLeases.jobId} = ${jobId} and ${jobLeases.owner} = ${owner} for share`,
  );
  return rows.length > 0;
}

export interface ReapedJob {
  /** The job whose lease was lost (now cancelled in the queue). */
  lostJobId: string;
  /** Its copy, queued to run at once with the same data and retry count. */
  jobId: string;
  queue: string;
  executionId: string | null;
  /** How many attempts of the job have now lost their lease. */
  losses: number;
}

/**
 * Takes back the jobs of this queue schema whose lease expired (an ended attempt's, whose
 * outcome the queue could not record, among them): each lost job is cancelled in
 * pg-boss (so that a late `complete` or `fail` from its old worker changes nothing) and a copy
 * queued to run at once, keeping its place (`created_on`) and its retry count: a lost worker is
 * not a failed attempt. Its execution, if still running, is queued again with a warning. After
 * `maxLosses` its copy carries no retry left: the caller fails it into the dead letter.
 */
export async function reapLostLeases(
  db: Executor,
  input: { queueSchema: string; maxLosses: number; limit?: number },
): Promise<ReapedJob[]> {
  const job = queueTable(input.queueSchema);
  const rows = await db.transaction(async (tx) => {
    // Ended attempts' leases whose outcome the queue recorded: dropped, however many.
    await tx.execute(
      rawQuery(
        `delete from job_leases l where l.queue_schema = $1 and l.owner = $2
           and l.expires_at < now()
           and not exists (select 1 from ${job} j
             where j.id = l.job_id and j.name = l.queue and j.state = 'active')`,
        [input.queueSchema, ENDED_LEASE_OWNER],
      ),
    );
    const reaped = await tx.execute(
      rawQuery(
        `with lost as (
          delete from job_leases where job_id in (
            select job_id from job_leases where queue_schema = $1 and expires_at < now()
            order by expires_at limit $2 for update skip locked)
          returning job_id, queue, execution_id, losses
        ), old as (
          update ${job} j set state = 'cancelled', completed_on = now(),
            output = jsonb_build_object('leaseLost', true)
          from lost where j.id = lost.job_id and j.name = lost.queue and j.state = 'active'
          returning j.*, gen_random_uuid() as new_id, lost.execution_id, lost.losses
        ), again as (
          insert into ${job} (id, name, priority, data, state, retry_limit, retry_count, retry_delay,
            retry_backoff, start_after, singleton_key, singleton_on, expire_in, created_on,
            keep_until, dead_letter, policy)
          select new_id, name, priority,
            coalesce(data, '{}'::jsonb) || jsonb_build_object('leaseLosses', losses + 1),
            'created', retry_limit,
            case when losses + 1 >= $3 then retry_limit else retry_count end, retry_delay, retry_backoff, now(), singleton_key,
            singleton_on, expire_in, created_on, keep_until, dead_letter, policy
          from old
        )
        select new_id as "jobId", id as "lostJobId", name as queue,
          execution_id as "executionId", losses + 1 as losses
        from old`,
        [input.queueSchema, input.limit ?? 20, input.maxLosses],
      ),
    );
    const jobs = [...reaped] as unknown as ReapedJob[];
    for (const lost of jobs) {
      await tx
        .insert(lostLeaseCounts)
        .values({ queue: lost.queue, lost: 1 })
        .onConflictDoUpdate({
          target: lostLeaseCounts.queue,
          set: { lost: sql`${lostLeaseCounts.lost} + 1`, lastLostAt: sql`now()` },
        });
      if (!lost.executionId) continue;
      const warning = {
        code: "WORKER_LOST",
        message: `attempt stopped: its worker stopped renewing the job's lease (${lost.losses} time(s)); it runs again`,
      };
      await tx.execute(
        sql`update executions set status = 'queued', stage = null, progress = null,
          warnings = warnings || ${JSON.stringify([warning])}::jsonb
          where execution_id = ${lost.executionId} and status = 'running'`,
      );
    }
    return jobs;
  });
  return rows;
}

/**
 * Lost leases so far per queue (and when the last was lost), and the running jobs' leases, for
 * the operator's queue figures and the workers' logs.
 */
export async function leaseStatus(
  db: Executor,
): Promise<{ lost: Record<string, number>; lastLostAt: Record<string, Date>; held: number }> {
  const lost = await db.select().from(lostLeaseCounts);
  const [held] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobLeases)
    .where(sql`${jobLeases.owner} <> ${ENDED_LEASE_OWNER}`);
  return {
    lost: Object.fromEntries(lost.map((r) => [r.queue, r.lost])),
    lastLostAt: Object.fromEntries(lost.map((r) => [r.queue, r.lastLostAt])),
    held: held?.n ?? 0,
  };
}
