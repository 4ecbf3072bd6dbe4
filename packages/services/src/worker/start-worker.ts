import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import type { ServiceContext } from "../context.ts";
import { startEventQueueConsumer } from "../events/consume-event-queue.ts";
import { ALERT_QUEUE, LOST_ALERT_QUEUE } from "../queue/alert-queue.ts";
import {
  ANALYSIS_QUEUE,
  type AnalysisJob,
  createQueues,
  DAILY_ACCOUNT_QUEUE,
  DAILY_QUEUE,
  LOST_ANALYSIS_QUEUE,
  MAINTENANCE_QUEUE,
  type QueueSettings,
} from "../queue/analysis-queue.ts";
import { EVENT_QUEUE, LOST_EVENT_QUEUE } from "../queue/event-queue.ts";
import { fairlyStarted } from "../queue/fair-share.ts";
import { DEFAULT_LEASE_SETTINGS, LeaseKeeper } from "../queue/lease-keeper.ts";
import { logQueueFigures } from "../queue/queue-figures.ts";
import { queueSchemaOf } from "../runtime/start-job-queue.ts";
import { alertJobHandler, lostAlertHandler } from "./alert-job.ts";
import { analysisJobHandler, analysisOverrun, lostAnalysisHandler } from "./analysis-job.ts";
import { dailyAccountHandler, dailyFanOutHandler } from "./daily-jobs.ts";
import { DEFAULT_EVENT_SETTINGS, type EventSettings, eventJobHandler } from "./event-job.ts";
import { lostEventHandler } from "./lost-event-job.ts";
import { maintenanceHandler } from "./maintenance-job.ts";
import { sweepLeftovers } from "./sweep-leftovers.ts";

/** How often the queues nobody waits on are asked for a job (at least). */
const BACKGROUND_POLL_SECONDS = 5;

export interface WorkerSettings {
  analysis: AnalysisSettings;
  queue: QueueSettings;
  /** Analyses this process runs at once. Each holds one account's model and rows in memory. */
  concurrency: number;
  /** When the daily run starts, a cron expression in UTC. */
  dailyCron: string;
  /** Over how many minutes the daily run spreads the accounts. */
  dailyWindowMinutes: number;
  snapshotRetentionDays: number;
  /** How often an idle worker asks for a job. */
  pollingIntervalSeconds: number;
  /** The event lane: debouncing and concurrency (defaults when absent). */
  events?: EventSettings;
  /** `SIGHTLINE_EVENTS_SQS_URL`: a central queue of CloudTrail events that this worker consumes too. */
  eventQueueUrl?: string;
  /** How often the worker logs the queue's figures (lanes, oldest waits, lost leases); default 60 s. */
  queueLogSeconds?: number;
}

/**
 * Makes this process a worker: it takes analysis and alert jobs from the shared queues (any
 * number of processes on any number of machines may), and keeps the daily and maintenance
 * schedules.
 * Stopping (draining) is the boss's: `boss.stop({ graceful: true })`.
 */
export async function startWorker(
  ctx: ServiceContext,
  settings: WorkerSettings,
): Promise<{ leases: LeaseKeeper }> {
  const { boss } = ctx;
  await createQueues(boss, settings.queue);
  const polling = { pollingIntervalSeconds: settings.pollingIntervalSeconds };
  // Queues nobody waits on (the daily fan-out and its accounts' jobs, maintenance, jobs lost for
  // good) are asked less often: each poll is a query, and twelve pollers a second made an idle
  // worker spend 18 ms of CPU a second.
  const background = {
    pollingIntervalSeconds: Math.max(settings.pollingIntervalSeconds, BACKGROUND_POLL_SECONDS),
  };
  const leaseSettings = settings.queue.lease ?? DEFAULT_LEASE_SETTINGS;
  const leases = new LeaseKeeper(ctx, leaseSettings, queueSchemaOf(boss));
  leases.start();
  // What a killed predecessor on this machine left; never in the way of starting.
  void sweepLeftovers(ctx.db, settings.analysis, ctx.now()).then(
    (swept) => ctx.logger.info(swept, "worker: leftovers of earlier attempts swept"),
    (error: unknown) => ctx.logger.warn({ err: error }, "worker: the sweep of leftovers failed"),
  );
  boss.once("stopped", () => leases.stop());
  // Each lane takes its tenants' jobs in turns (fair-share.ts): a job's start moves the turn on.
  const analysis = fairlyStarted(
    ctx,
    ANALYSIS_QUEUE,
    leases.handler(ANALYSIS_QUEUE, "analysis", analysisJobHandler(ctx, settings.analysis), {
      executionIdOf: (data: AnalysisJob) => data.executionId,
      onOverrun: analysisOverrun(ctx, leaseSettings.maxRunSeconds.analysis, settings.analysis),
    }),
  );
  for (let i = 0; i < settings.concurrency; i++)
    await boss.work(ANALYSIS_QUEUE, { ...polling, batchSize: 1, includeMetadata: true }, analysis);
  await boss.work(LOST_ANALYSIS_QUEUE, background, lostAnalysisHandler(ctx));
  await boss.work(DAILY_QUEUE, background, dailyFanOutHandler(ctx, settings.dailyWindowMinutes));
  await boss.work(DAILY_ACCOUNT_QUEUE, { ...background, batchSize: 10 }, dailyAccountHandler(ctx));
  await boss.work(
    MAINTENANCE_QUEUE,
    background,
    maintenanceHandler(
      ctx,
      settings.snapshotRetentionDays,
      settings.analysis,
      settings.events?.snapshotRetentionHours,
    ),
  );
  // Alerts go out beside analyses: two at a time, so that a slow receiver holds up no other.
  const alerts = leases.handler(ALERT_QUEUE, "alert", alertJobHandler(ctx));
  for (let i = 0; i < 2; i++)
    await boss.work(ALERT_QUEUE, { ...polling, batchSize: 1, includeMetadata: true }, alerts);
  await boss.work(LOST_ALERT_QUEUE, background, lostAlertHandler(ctx));
  // The event lane: its own workers, so that a step never waits behind full analyses.
  const events = settings.events ?? DEFAULT_EVENT_SETTINGS;
  const eventSteps = fairlyStarted(
    ctx,
    EVENT_QUEUE,
    leases.handler(
      EVENT_QUEUE,
      "event",
      eventJobHandler(ctx, { analysis: settings.analysis, events }),
    ),
  );
  for (let i = 0; i < events.concurrency; i++)
    await boss.work(EVENT_QUEUE, { ...polling, batchSize: 1, includeMetadata: true }, eventSteps);
  await boss.work(LOST_EVENT_QUEUE, background, lostEventHandler(ctx));
  if (settings.eventQueueUrl) {
    const { analysis } = settings;
    const consumer = startEventQueueConsumer(ctx, {
      queueUrl: settings.eventQueueUrl,
      quietSeconds: events.quietSeconds,
      ...(analysis.serviceCredentials ? { credentials: analysis.serviceCredentials } : {}),
      ...(analysis.awsClientOptions ? { clientOptions: analysis.awsClientOptions } : {}),
    });
    boss.once("stopped", () => void consumer.stop());
  }
  const queueLog = logQueueFigures(ctx, settings.queueLogSeconds ?? 60);
  boss.once("stopped", () => queueLog.stop());
  await boss.schedule(DAILY_QUEUE, settings.dailyCron, {}, { tz: "UTC" });
  await boss.schedule(MAINTENANCE_QUEUE, "17 * * * *", {}, { tz: "UTC" });
  ctx.logger.info(
    { concurrency: settings.concurrency, dailyCron: settings.dailyCron },
    "worker started",
  );
  return { leases };
}
