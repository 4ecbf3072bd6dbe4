import { leaseStatus, queueStatus } from "@sightline/db";
import type { QueueFigures } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { ALERT_QUEUE } from "./alert-queue.ts";
import { ANALYSIS_QUEUE } from "./analysis-queue.ts";
import { EVENT_QUEUE } from "./event-queue.ts";
import { queueSchemaOf } from "./queue-schema.ts";

const LANES = [
  ["analysis", ANALYSIS_QUEUE],
  ["event", EVENT_QUEUE],
  ["alert", ALERT_QUEUE],
] as const;

/**
 * Each lane's depth, what runs and the oldest wait (in all and per tenant), the leases held and
 * those lost so far: what `GET /admin/queues` answers and the workers log.
 */
export async function readQueueFigures(
  ctx: Pick<ServiceContext, "db" | "boss">,
): Promise<QueueFigures> {
  const lanes = await queueStatus(ctx.db, {
    queueSchema: queueSchemaOf(ctx.boss),
    queues: LANES.map(([, queue]) => queue),
  });
  const leases = await leaseStatus(ctx.db);
  return {
    lanes: LANES.map(([lane, queue], i) => {
      const figures = lanes[i];
      if (!figures || figures.queue !== queue) throw new Error(`no figures for queue ${queue}`);
      return { lane, ...figures };
    }),
    leases: {
      held: leases.held,
      lost: Object.entries(leases.lost).map(([queue, lost]) => ({
        queue,
        lost,
        lastLostAt: (leases.lastLostAt[queue] ?? new Date(0)).toISOString(),
      })),
    },
  };
}

/** At most this many tenants per lane in a log line: the longest waits. */
const LOGGED_TENANTS = 5;

/**
 * Logs the queue's figures at info every `intervalSeconds` (a worker does, so that a log search
 * shows a lane backing up and whose work waits); a failed read is a warning, never a stop.
 */
export function logQueueFigures(
  ctx: Pick<ServiceContext, "db" | "boss" | "logger">,
  intervalSeconds: number,
): { stop(): void } {
  const timer = setInterval(async () => {
    try {
      const figures = await readQueueFigures(ctx);
      ctx.logger.info(
        {
          lanes: figures.lanes.map((l) => ({
            ...l,
            tenants: l.tenants.slice(0, LOGGED_TENANTS),
          })),
          leases: figures.leases,
        },
        "job queue",
      );
    } catch (error) {
      ctx.logger.warn({ err: error }, "job queue: its figures could not be read");
    }
  }, intervalSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
