import { z } from "zod";

const Seconds = z
  .number()
  .nonnegative()
  .nullable()
  .describe("Seconds since the oldest waiting job became due; null when none waits");

/** One tenant's jobs in a lane: a partner (all its customers) or a direct customer. */
export const TenantQueueFigures = z
  .object({
    tenant: z.string().describe("A partner ID, or a direct customer's ID"),
    waiting: z.number().int().nonnegative(),
    running: z.number().int().nonnegative(),
    oldestWaitingSeconds: Seconds,
  })
  .meta({ id: "TenantQueueFigures" });

/** A lane of the job queue, as the operator watches it. */
export const QueueLaneFigures = z
  .object({
    lane: z.enum(["analysis", "event", "alert"]),
    queue: z.string().describe("The pg-boss queue"),
    waiting: z.number().int().nonnegative().describe("Jobs due and not yet taken: the depth"),
    scheduled: z
      .number()
      .int()
      .nonnegative()
      .describe("Jobs queued for later: a retry's back-off, an event step's quiet period"),
    running: z.number().int().nonnegative(),
    oldestWaitingSeconds: Seconds,
    tenants: z
      .array(TenantQueueFigures)
      .describe("Tenants with jobs waiting or running, the longest wait first (alerts name none)"),
  })
  .meta({ id: "QueueLaneFigures" });

/** `GET /admin/queues`: the lanes, the running jobs' leases and the leases lost so far. */
export const QueueFigures = z
  .object({
    lanes: z.array(QueueLaneFigures),
    leases: z.object({
      held: z.number().int().nonnegative().describe("Running jobs' leases held now"),
      lost: z
        .array(
          z.object({
            queue: z.string(),
            lost: z.number().int().nonnegative(),
            lastLostAt: z.iso.datetime(),
          }),
        )
        .describe(
          "Leases lost since the database was made, per queue: each a worker that died or hung",
        ),
    }),
  })
  .meta({ id: "QueueFigures" });
export type QueueFigures = z.infer<typeof QueueFigures>;
