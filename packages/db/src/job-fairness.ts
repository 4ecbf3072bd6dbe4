import { sql } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { rawQuery } from "./raw-query.ts";
import { queueVirtualTimes } from "./schema-queue.ts";

/**
 * A fair share per tenant inside each lane, through pg-boss's own order (`priority desc,
 * created_on`): start-time fair queueing. Each job gets a tag when it is sent — one after the
 * lane's virtual time (the tag of the job started last), and two after its tenant's newest
 * queued or running job — and its priority is minus its tag. The lane's workers take the lowest
 * tag first, so the tenants with work queued take turns: a tenant's burst of a hundred jobs
 * gets one turn per round, and another tenant's first job is the next one started.
 *
 * Why tags fixed at send, and not a picker of our own: pg-boss's fetch, its retries (the same
 * row, the same priority) and the lease reaper (a copy with the same priority and `created_on`)
 * all keep a job's place without knowing about tenants, and a job that comes back is at the
 * front, as it should be.
 *
 * Steps of two: a tenant's own jobs are two apart (odd after odd), and a newcomer takes the tag
 * just after the job started last (even), so that it goes before the next job of a tenant whose
 * burst is under way, never behind it. Newcomers among themselves are first come, first served.
 */

/** `now`: on-demand analyses and event steps. `daily`: every daily analysis goes after them. */
export type FairBand = "now" | "daily";

/** Bands never meet: the `now` tags stay above the daily base for a billion jobs. */
const DAILY_BASE = -1_000_000_000;
const BAND_FLOOR = DAILY_BASE / 2;
const baseOf = (band: FairBand) => (band === "daily" ? DAILY_BASE : 0);
export const bandOfPriority = (priority: number): FairBand =>
  priority > BAND_FLOOR ? "now" : "daily";

/** pg-boss's schema is named in SQL text: only a plain identifier is accepted. */
function jobTable(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`not a queue schema: ${schema}`);
  return `"${schema}".job`;
}

export interface FairJobInput {
  queueSchema: string;
  queue: string;
  tenant: string;
  band: FairBand;
}

/**
 * The priority of a new job of `tenant` in the lane, to send in the same transaction `tx`: the
 * lane's sends take turns (a transaction-scoped lock), so that two jobs of one tenant sent at
 * once get tags of their own.
 */
export async function fairJobPriority(tx: Executor, input: FairJobInput): Promise<number> {
  const job = jobTable(input.queueSchema);
  const base = baseOf(input.band);
  const inBand = input.band === "now" ? `priority > ${BAND_FLOOR}` : `priority <= ${BAND_FLOOR}`;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${input.queueSchema}.${input.queue}`}, 0))`,
  );
  const [row] = await tx.execute(
    rawQuery(
      `select
        (select virtual_time from queue_virtual_times
          where queue_schema = $1 and queue = $2 and band = $3) as "virtualTime",
        (select min(priority) from ${job}
          where name = $2 and state <= 'active' and data->>'tenant' = $4 and ${inBand}) as "ownLowest"`,
      [input.queueSchema, input.queue, input.band, input.tenant],
    ),
  );
  const virtualTime = Number(row?.virtualTime ?? 0);
  const ownLowest = row?.ownLowest;
  const ownNewestTag = ownLowest == null ? undefined : base - Number(ownLowest);
  const tag = Math.max(virtualTime + 1, ownNewestTag === undefined ? 0 : ownNewestTag + 2);
  return base - tag;
}

/**
 * A job of priority `priority` started: the lane's virtual time moves up to its tag (never back:
 * a retried or reaped job keeps its earlier, lower tag).
 */
export async function noteFairJobStarted(
  db: Executor,
  input: { queueSchema: string; queue: string; priority: number },
): Promise<void> {
  const band = bandOfPriority(input.priority);
  const tag = baseOf(band) - input.priority;
  await db
    .insert(queueVirtualTimes)
    .values({ queueSchema: input.queueSchema, queue: input.queue, band, virtualTime: tag })
    .onConflictDoUpdate({
      target: [queueVirtualTimes.queueSchema, queueVirtualTimes.queue, queueVirtualTimes.band],
      set: { virtualTime: sql`greatest(${queueVirtualTimes.virtualTime}, ${tag})` },
    });
}
