import type { Executor } from "./client.ts";
import { rawQuery } from "./raw-query.ts";

/** One tenant's jobs in a lane (tenants with none waiting or running are not listed). */
export interface TenantQueueStatus {
  tenant: string;
  waiting: number;
  running: number;
  /** Seconds since the tenant's oldest waiting job became due; null when none waits. */
  oldestWaitingSeconds: number | null;
}

/** A lane of the job queue, as the operator watches it. */
export interface LaneQueueStatus {
  queue: string;
  /** Jobs due and not yet taken by a worker: the queue's depth. */
  waiting: number;
  /** Jobs queued for later: a retry's back-off, an event step's quiet period. */
  scheduled: number;
  running: number;
  /** Seconds since the oldest waiting job became due; null when none waits. */
  oldestWaitingSeconds: number | null;
  /** Per tenant (jobs that name one), the longest wait first. */
  tenants: TenantQueueStatus[];
}

/** pg-boss's schema is named in SQL text: only a plain identifier is accepted. */
function jobTable(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`not a queue schema: ${schema}`);
  return `"${schema}".job`;
}

interface Row {
  queue: string;
  tenant: string | null;
  waiting: number;
  scheduled: number;
  running: number;
  oldest: number | null;
}

const rounded = (seconds: number | null) =>
  seconds === null ? null : Math.round(seconds * 10) / 10;

/**
 * Each lane's depth, what runs, and how long the oldest waiting job has waited — in all and per
 * tenant (the tenant a fairly queued job carries in its data). A job's wait counts from when it
 * became due (`start_after`): a retry waiting out its back-off is scheduled, not waiting.
 */
export async function queueStatus(
  db: Executor,
  input: { queueSchema: string; queues: readonly string[] },
): Promise<LaneQueueStatus[]> {
  const rows = (await db.execute(
    rawQuery(
      `select name as queue, data->>'tenant' as tenant,
        (count(*) filter (where state < 'active' and start_after <= now()))::int as waiting,
        (count(*) filter (where state < 'active' and start_after > now()))::int as scheduled,
        (count(*) filter (where state = 'active'))::int as running,
        extract(epoch from now() - min(start_after)
          filter (where state < 'active' and start_after <= now()))::float8 as oldest
      from ${jobTable(input.queueSchema)}
      where name = any(string_to_array($1, ',')) and state <= 'active'
      group by 1, 2`,
      [input.queues.join(",")],
    ),
  )) as unknown as Row[];
  return input.queues.map((queue) => {
    const mine = rows.filter((r) => r.queue === queue);
    const sum = (pick: (r: Row) => number) => mine.reduce((n, r) => n + pick(r), 0);
    const oldest = mine.reduce<number | null>(
      (max, r) => (r.oldest !== null && (max === null || r.oldest > max) ? r.oldest : max),
      null,
    );
    const tenants = mine
      .filter((r) => r.tenant !== null && (r.waiting > 0 || r.running > 0))
      .sort((a, b) => (b.oldest ?? -1) - (a.oldest ?? -1))
      .map((r) => ({
        tenant: r.tenant as string,
        waiting: r.waiting,
        running: r.running,
        oldestWaitingSeconds: rounded(r.oldest),
      }));
    return {
      queue,
      waiting: sum((r) => r.waiting),
      scheduled: sum((r) => r.scheduled),
      running: sum((r) => r.running),
      oldestWaitingSeconds: rounded(oldest),
      tenants,
    };
  });
}
