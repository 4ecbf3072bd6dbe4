import type { Executor } from "@sightline/db";
import { sqlExecutorOf } from "@sightline/db";
import type PgBoss from "pg-boss";
import { type FairJobData, fairSendOptions } from "./fair-share.ts";

/**
 * The event lane: one job per account with events pending, taken by its own workers, so that an
 * event step never waits behind full analyses of other accounts.
 */
export const EVENT_QUEUE = "event-step";
/** Event jobs that failed for good without recording it (their worker kept dying). */
export const LOST_EVENT_QUEUE = "event-step-lost";

/** An event job names the monitored account; its pending events are in `account_events`. */
export interface EventStepJob extends FairJobData {
  customerId: string;
  accountId: string;
}

/**
 * `stately`: at most one step of an account queued and one running. A send while one is queued
 * writes nothing — that queued step reads every pending event when it runs.
 */
export const EVENT_QUEUE_OPTIONS: Omit<PgBoss.Queue, "name"> = {
  policy: "stately",
  retryLimit: 3,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
  deadLetter: LOST_EVENT_QUEUE,
};

/**
 * Schedules the account's next event step (nothing if one is queued already), at its tenant's
 * fair place in the lane (`fair-share.ts`), in a transaction of `db` (or `db`'s, if it is one).
 */
export async function enqueueEventStep(
  boss: PgBoss,
  db: Executor,
  job: EventStepJob & { startAfter: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { priority, tenant } = await fairSendOptions(boss, tx, {
      queue: EVENT_QUEUE,
      customerId: job.customerId,
      band: "now",
    });
    await boss.send(
      EVENT_QUEUE,
      { customerId: job.customerId, accountId: job.accountId, tenant } satisfies EventStepJob,
      {
        db: sqlExecutorOf(tx),
        priority,
        singletonKey: `${job.customerId}/${job.accountId}`,
        startAfter: job.startAfter,
      },
    );
  });
}
