import path from "node:path";
import { startDatabase } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import { BaseConfig, parseConfig } from "@sightline/runtime";
import {
  alertSettingsOf,
  openServiceContext,
  PipelineConfig,
  startWorker,
  warnPendingOemRevocations,
  warnSharedAuditorRoles,
  workerSettingsOf,
} from "@sightline/services";
import { z } from "zod";

/** Every process's settings (`SIGHTLINE_DRAIN_SECONDS` among them) and the pipeline's. */
const WorkerConfig = z.intersection(BaseConfig, PipelineConfig);

/** Set while a failed start would leave the embedded Postgres running. */
let stopDatabase: (() => Promise<void>) | undefined;

/**
 * A worker process alone (`SIGHTLINE_ROLE=worker` of the start command): it takes analysis jobs
 * from the shared queue. Run as many as needed, on as many machines; they share one database.
 */
async function main() {
  const config = parseConfig(WorkerConfig, process.env);
  const logger = createLogger({
    level: config.LOG_LEVEL,
    bindings: { service: "sightline-worker" },
  });
  const dataDir = path.resolve(config.SIGHTLINE_DATA_DIR);
  const database = await startDatabase({ databaseUrl: config.DATABASE_URL, dataDir, logger });
  stopDatabase = () => database.stop();
  const settings = workerSettingsOf(config, dataDir);
  const services = await openServiceContext({
    databaseUrl: database.url,
    dataDir,
    logger,
    kmsKeyId: config.SIGHTLINE_KMS_KEY_ID,
    queue: settings.queue,
    alerts: alertSettingsOf(config),
  });
  // What the operator must settle since tenant isolation: logged at every start until settled.
  await warnPendingOemRevocations(services.ctx.db, logger);
  await warnSharedAuditorRoles(services.ctx.db, logger);
  const { leases } = await startWorker(services.ctx, settings);
  stopDatabase = undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainSeconds: config.SIGHTLINE_DRAIN_SECONDS }, "draining");
    await services.close(config.SIGHTLINE_DRAIN_SECONDS * 1000, leases);
    await database.stop();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch(async (error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  await stopDatabase?.().catch(() => {});
  process.exit(1);
});
