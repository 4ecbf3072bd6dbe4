import { type Executor, sqlExecutorOf } from "@sightline/db";
import type { ExecutionKind } from "@sightline/domain";
import type PgBoss from "pg-boss";
import { ALERT_QUEUE, ALERT_QUEUE_OPTIONS, LOST_ALERT_QUEUE } from "./alert-queue.ts";
import { EVENT_QUEUE, EVENT_QUEUE_OPTIONS, LOST_EVENT_QUEUE } from "./event-queue.ts";
import { type FairJobData, fairSendOptions } from "./fair-share.ts";
import type { LeaseSettings } from "./lease-keeper.ts";

export const ANALYSIS_QUEUE = "analysis";
/** Analysis jobs that failed for good without recording it (their worker kept dying). */
export const LOST_ANALYSIS_QUEUE = "analysis-lost";
/** Fired by the daily schedule: fans out one job per monitored account over the window. */
export const DAILY_QUEUE = "daily-analysis";
/** One monitored account's daily analysis, due at its place in the window. */
export const DAILY_ACCOUNT_QUEUE = "daily-analysis-account";
/** Hourly: expired own credentials and old snapshots are deleted. */
export const MAINTENANCE_QUEUE = "maintenance";

/** An analysis job carries identifiers only; the execution row is the truth. */
export interface AnalysisJob extends FairJobData {
  executionId: string;
}

export interface QueueSettings {
  /** Attempts after the first, for failures that may pass (throttling, outages). */
  retryLimit: number;
  retryDelaySeconds: number;
  /**
   * An active job older than this is taken to be lost (its worker died) and runs again. It must
   * exceed the longest analysis: a 10,000-principal account took 2–3 minutes in the benchmark.
   */
  expireInSeconds: number;
  /** Running jobs' leases: how a dead worker's job comes back within seconds. */
  lease?: LeaseSettings;
}

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = {
  retryLimit: 3,
  retryDelaySeconds: 30,
  // The last resort, well above the lease: the lease brings a dead worker's job back in 20 s,
  // and ends a hung one after its kind's maximum run time.
  expireInSeconds: 45 * 60,
};

/**
 * Creates the queues (idempotent, and safe in several processes at once): one active analysis per
 * account at a time; alerts' deliveries retried with back-off.
 */
export async function createQueues(boss: PgBoss, settings: QueueSettings): Promise<void> {
  const analysis = {
    policy: "singleton" as const,
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: settings.expireInSeconds,
    deadLetter: LOST_ANALYSIS_QUEUE,
  };
  const small = { policy: "standard" as const, retryLimit: 2, retryDelay: 60 };
  const queues: [string, Omit<PgBoss.Queue, "name">][] = [
    [LOST_ANALYSIS_QUEUE, small],
    [ANALYSIS_QUEUE, analysis],
    [DAILY_QUEUE, small],
    [DAILY_ACCOUNT_QUEUE, small],
    [MAINTENANCE_QUEUE, small],
    [LOST_ALERT_QUEUE, small],
    [ALERT_QUEUE, ALERT_QUEUE_OPTIONS],
    [LOST_EVENT_QUEUE, small],
    [EVENT_QUEUE, EVENT_QUEUE_OPTIONS],
  ];
  for (const [name, options] of queues) {
    // Processes starting together on a new database create the same queues at once: pg-boss's
    // create_queue then deadlocks (or meets the other's row), and the loser finds it made.
    for (let attempt = 1; ; attempt++) {
      try {
        if (await boss.getQueue(name)) await boss.updateQueue(name, { name, ...options });
        else await boss.createQueue(name, { name, ...options });
        break;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= 10 || (code !== "40P01" && code !== "23505")) throw error;
      }
    }
  }
}

/**
 * Enqueues the analysis of an execution inside the transaction that inserts it, at its tenant's
 * fair place in the lane: daily analyses after every on-demand one (`fair-share.ts`).
 */
export async function enqueueAnalysis(
  boss: PgBoss,
  tx: Executor,
  job: AnalysisJob & {
    customerId: string;
    accountId: string;
    kind: ExecutionKind;
    startAfter?: Date;
  },
): Promise<void> {
  const { priority, tenant } = await fairSendOptions(boss, tx, {
    queue: ANALYSIS_QUEUE,
    customerId: job.customerId,
    band: job.kind === "daily" ? "daily" : "now",
  });
  const id = await boss.send(
    ANALYSIS_QUEUE,
    { executionId: job.executionId, tenant } satisfies AnalysisJob,
    {
      db: sqlExecutorOf(tx),
      priority,
      singletonKey: `${job.customerId}/${job.accountId}`,
      ...(job.startAfter ? { startAfter: job.startAfter } : {}),
    },
  );
  // pg-boss answers null instead of throwing when it writes no job (e.g. no such queue): the
  // transaction must not commit an execution that nothing will run.
  if (!id)
    throw new Error(
      `queue '${ANALYSIS_QUEUE}' refused the job of ${job.executionId}: were the queues created?`,
    );
}
