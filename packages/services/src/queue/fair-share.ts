import { type Executor, type FairBand, fairJobPriority, noteFairJobStarted } from "@sightline/db";
import type PgBoss from "pg-boss";
import type { ServiceContext } from "../context.ts";
import { queueSchemaOf } from "./queue-schema.ts";

/**
 * Whose share a job counts against: a partner's for each of its customers' accounts (a partner
 * that triggers hundreds of analyses of its customers waits its turn as one tenant), a direct
 * customer's own.
 */
export function tenantOf(customerId: string): string {
  const partner = /^(P\d{6})-\d{12}$/.exec(customerId);
  return partner?.[1] ?? customerId;
}

/** What a fairly queued job carries beside its identifiers. */
export interface FairJobData {
  /** The tenant the job counts against (`tenantOf`); the fair share reads it in the queue. */
  tenant?: string;
}

/**
 * The `priority` a new job of the account's tenant is sent with in `queue` (and the tenant, for
 * its data), inside the transaction `tx` that sends it: see `job-fairness.ts` in the database
 * package for the order this makes.
 */
export async function fairSendOptions(
  boss: PgBoss,
  tx: Executor,
  job: { queue: string; customerId: string; band: FairBand },
): Promise<{ priority: number; tenant: string }> {
  const tenant = tenantOf(job.customerId);
  const priority = await fairJobPriority(tx, {
    queueSchema: queueSchemaOf(boss),
    queue: job.queue,
    tenant,
    band: job.band,
  });
  return { priority, tenant };
}

/**
 * A lane's handler that first moves the lane's virtual time to the job's tag, so that the next
 * job sent by another tenant is tagged after it. A failure to note it changes only the order.
 */
export function fairlyStarted<T extends object, Rest extends unknown[]>(
  ctx: Pick<ServiceContext, "db" | "boss" | "logger">,
  queue: string,
  handler: (jobs: PgBoss.JobWithMetadata<T>[], ...rest: Rest) => Promise<void>,
): (jobs: PgBoss.JobWithMetadata<T>[], ...rest: Rest) => Promise<void> {
  const queueSchema = queueSchemaOf(ctx.boss);
  return async (jobs, ...rest) => {
    for (const job of jobs)
      await noteFairJobStarted(ctx.db, { queueSchema, queue, priority: job.priority }).catch(
        (error: unknown) =>
          ctx.logger.warn({ err: error, queue }, "fair share: the job's start was not noted"),
      );
    return handler(jobs, ...rest);
  };
}
