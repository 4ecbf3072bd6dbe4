import type { Logger } from "@sightline/logging";
import PgBoss from "pg-boss";
import { createQueues, type QueueSettings } from "../queue/analysis-queue.ts";
import { rememberQueueSchema } from "../queue/queue-schema.ts";

export { queueSchemaOf } from "../queue/queue-schema.ts";

/**
 * Starts the job queue on the database (pg-boss installs its schema on first start) and creates
 * the queues. With `maintenance`, this process also expires lost jobs (every
 * `maintenanceIntervalSeconds`) and fires the schedules: workers do; an API-only process, tests
 * and benchmarks need not.
 */
export async function startJobQueue(options: {
  databaseUrl: string;
  logger: Logger;
  queue: QueueSettings;
  maintenance: boolean;
  maintenanceIntervalSeconds?: number;
  maxConnections?: number;
  /** A pg-boss schema of its own (tests); default `pgboss`. */
  schema?: string;
}): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 4,
    application_name: "sightline-queue",
    supervise: options.maintenance,
    schedule: options.maintenance,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    ...(options.schema ? { schema: options.schema } : {}),
  });
  boss.on("error", (err) => options.logger.error({ err }, "job queue error"));
  rememberQueueSchema(boss, options.schema ?? "pgboss");
  await boss.start();
  await createQueues(boss, options.queue);
  return boss;
}
