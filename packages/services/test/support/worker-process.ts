/**
 * A worker in a process of its own, for tests that kill it: `node --import tsx` this file with
 * SIGHTLINE_TEST_WORKER set to the JSON of { databaseUrl, schema, settings, alerts?, masterKeyHex?,
 * standby?, holdWrites? }.
 * `standby`: it loads everything and connects, then waits for the message "start" before it
 * takes jobs (a test keeps one ready to take over at once). `holdWrites`: its report files never
 * finish writing (an attempt held in its `writing` stage, for a test to kill there).
 */
import { randomBytes } from "node:crypto";
import { copyFile, writeFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { createDb } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import type { AlertSettings } from "../../src/alerts/alert-settings.ts";
import type { WorkerFiles } from "../../src/analysis/analysis-settings.ts";
import { localMasterKey } from "../../src/credentials/master-key.ts";
import { startJobQueue } from "../../src/runtime/start-job-queue.ts";
import { startWorker, type WorkerSettings } from "../../src/worker/start-worker.ts";

const { databaseUrl, schema, settings, alerts, masterKeyHex, standby, holdWrites } = JSON.parse(
  process.env.SIGHTLINE_TEST_WORKER ?? "{}",
) as {
  databaseUrl: string;
  schema: string;
  settings: WorkerSettings;
  alerts?: AlertSettings;
  /** The master key the test sealed secrets with (alert destinations'); else a fresh one. */
  masterKeyHex?: string;
  standby?: boolean;
  holdWrites?: boolean;
};

/** Files whose bytes are taken and never written: the writer waits for ever. */
const heldFiles: WorkerFiles = {
  createWriteStream: () => new Writable({ write: () => {} }),
  copyFile,
  writeFile,
};

// Warnings go to the test over IPC (a lost lease, a retried attempt).
const logger = createLogger({ level: "warn", write: (line) => process.send?.({ log: line }) });
// The pipeline loads with the first job: loaded now, a standby takes over without that second.
await import("../../src/analysis/run-analysis.ts");
const database = createDb(databaseUrl, { maxConnections: 2 });
const boss = await startJobQueue({
  databaseUrl,
  logger,
  queue: settings.queue,
  maintenance: true,
  maxConnections: 2,
  schema,
});
if (standby) {
  process.send?.("standing-by");
  await new Promise<void>((resolve) =>
    process.on("message", (message) => message === "start" && resolve()),
  );
}
await startWorker(
  {
    db: database.db,
    databaseUrl,
    boss,
    masterKey: localMasterKey(masterKeyHex ? Buffer.from(masterKeyHex, "hex") : randomBytes(32)),
    logger,
    now: () => new Date(),
    ...(alerts ? { alerts } : {}),
  },
  holdWrites ? { ...settings, analysis: { ...settings.analysis, files: heldFiles } } : settings,
);
process.send?.("ready");
