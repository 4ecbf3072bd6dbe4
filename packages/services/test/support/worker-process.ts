/**
 * A worker in a process of its own, for tests that kill it: `node --import tsx` this file with
 * SIGHTLINE_TEST_WORKER set to the JSON of { databaseUrl, schema, settings }.
 */
import { randomBytes } from "node:crypto";
import { createDb } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import { localMasterKey } from "../../src/credentials/master-key.ts";
import { startJobQueue } from "../../src/runtime/start-job-queue.ts";
import { startWorker, type WorkerSettings } from "../../src/worker/start-worker.ts";

const { databaseUrl, schema, settings } = JSON.parse(process.env.SIGHTLINE_TEST_WORKER ?? "{}") as {
  databaseUrl: string;
  schema: string;
  settings: WorkerSettings;
};
// Warnings go to the test over IPC (a lost lease, a retried attempt).
const logger = createLogger({ level: "warn", write: (line) => process.send?.({ log: line }) });
const database = createDb(databaseUrl, { maxConnections: 2 });
const boss = await startJobQueue({
  databaseUrl,
  logger,
  queue: settings.queue,
  maintenance: true,
  maxConnections: 2,
  schema,
});
await startWorker(
  {
    db: database.db,
    databaseUrl,
    boss,
    masterKey: localMasterKey(randomBytes(32)),
    logger,
    now: () => new Date(),
  },
  settings,
);
process.send?.("ready");
