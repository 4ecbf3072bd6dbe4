import { readFile } from "node:fs/promises";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ServerType, serve } from "@hono/node-server";
import { createDb, startDatabase } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import { loadOperatorKey, parseConfig } from "@sightline/runtime";
import {
  alertSettingsOf,
  drainJobQueue,
  loadMasterKey,
  startJobQueue,
  startWorker,
  warnPendingOemRevocations,
  warnSharedAuditorRoles,
  workerSettingsOf,
} from "@sightline/services";
import { createApp } from "./app.ts";
import { startAuditPruning } from "./audit-retention.ts";
import { ApiConfig } from "./config.ts";
import { connectAppDeps } from "./deps.ts";
import { rateLimitsOf } from "./rate-limits.ts";
import { startWorkerChild, type WorkerChild } from "./worker-child.ts";

/** Resolves once the server listens; rejects with a message naming PORT when it cannot. */
function listening(server: ServerType, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `PORT ${port} on ${host} is in use by another process: set PORT to a free port`,
            )
          : error,
      ),
    );
  });
}

/** The PEM certificate chain and key of TLS_CERT_FILE and TLS_KEY_FILE. */
async function readTls(config: ApiConfig): Promise<{ cert: Buffer; key: Buffer }> {
  const [cert, key] = await Promise.all([
    readFile(config.TLS_CERT_FILE as string),
    readFile(config.TLS_KEY_FILE as string),
  ]);
  return { cert, key };
}

/** What a start that fails half-way must undo, last first, so that no Postgres is left behind. */
const undo: (() => Promise<unknown>)[] = [];

/**
 * The start command: the API, a worker, or (`SIGHTLINE_ROLE=all`) the API with a worker in a
 * child process that it starts and stops.
 */
async function main() {
  const config = parseConfig(ApiConfig, process.env);
  const role = config.SIGHTLINE_ROLE;
  const logger = createLogger({
    level: config.LOG_LEVEL,
    bindings: { service: "sightline", role, pid: process.pid },
  });
  const dataDir = path.resolve(config.SIGHTLINE_DATA_DIR);
  const database = await startDatabase({ databaseUrl: config.DATABASE_URL, dataDir, logger });
  undo.push(() => database.stop());
  const settings = workerSettingsOf(config, dataDir);
  const boss = await startJobQueue({
    databaseUrl: database.url,
    logger,
    queue: settings.queue,
    maintenance: role === "worker",
  });
  undo.push(() => boss.stop({ graceful: false, wait: true }));
  const masterKey = await loadMasterKey({ kmsKeyId: config.SIGHTLINE_KMS_KEY_ID, dataDir, logger });
  const adminKey = await loadOperatorKey({
    configured: config.SIGHTLINE_ADMIN_KEY,
    dataDir,
    logger,
  });
  const tls = config.TLS_CERT_FILE && config.TLS_KEY_FILE ? await readTls(config) : undefined;
  const scheme = tls ? "https" : "http";
  const publicUrl = config.SIGHTLINE_PUBLIC_URL ?? `${scheme}://${config.HOST}:${config.PORT}`;
  const running = await connectAppDeps({
    databaseUrl: database.url,
    adminKey,
    logger,
    publicUrl,
    boss,
    masterKey,
    statementTimeoutSeconds: config.SIGHTLINE_DB_STATEMENT_TIMEOUT_SECONDS,
    lockTimeoutSeconds: config.SIGHTLINE_DB_LOCK_TIMEOUT_SECONDS,
    https: tls !== undefined,
    trustProxy: config.TRUST_PROXY,
    alerts: alertSettingsOf(config),
    rateLimits: rateLimitsOf(config),
    events: { quietSeconds: config.SIGHTLINE_EVENT_QUIET_SECONDS },
    ...(config.SIGHTLINE_KEY_MAX_DAYS ? { keyMaxDays: config.SIGHTLINE_KEY_MAX_DAYS } : {}),
  });
  undo.push(() => running.close());
  // What the operator must settle since tenant isolation: logged at every start until settled.
  await warnPendingOemRevocations(running.deps.db, logger);
  await warnSharedAuditorRoles(running.deps.db, logger);
  // The worker's queries (a large snapshot, a whole account's records) are not bounded like a
  // request's: it gets a pool of its own.
  const workerDb = role === "worker" ? createDb(database.url, { maxConnections: 4 }) : undefined;
  if (workerDb) undo.push(() => workerDb.close());
  let server: ServerType | undefined;
  if (role !== "worker") {
    const stopPruning = startAuditPruning(
      running.deps.db,
      config.SIGHTLINE_AUDIT_RETENTION_DAYS,
      logger,
    );
    undo.push(async () => stopPruning());
    server = serve({
      fetch: createApp(running.deps).fetch,
      hostname: config.HOST,
      port: config.PORT,
      ...(tls ? { createServer: createHttpsServer } : {}),
      // Slow clients are cut off: each held connection buffers up to the body limit.
      serverOptions: {
        ...tls,
        requestTimeout: config.SIGHTLINE_REQUEST_TIMEOUT_SECONDS * 1000,
        headersTimeout: config.SIGHTLINE_HEADERS_TIMEOUT_SECONDS * 1000,
        connectionsCheckingInterval: 1000,
      },
    });
    if (tls) {
      const https = server as HttpsServer;
      // Certificates rotate without a restart: SIGHUP reads the files again.
      process.on("SIGHUP", () => {
        readTls(config).then(
          (next) => {
            https.setSecureContext(next);
            logger.info({ certFile: config.TLS_CERT_FILE }, "TLS certificate reloaded");
          },
          (error: unknown) =>
            logger.error({ err: error }, "TLS certificate not reloaded: the old one stays"),
        );
      });
    }
    await listening(server, config.HOST, config.PORT);
    const { port } = server.address() as { port: number };
    const url = `${scheme}://${config.HOST}:${port}`;
    logger.info({ url, docs: `${url}/docs` }, "listening");
  }
  // The API answers first; the worker starts taking jobs right after, in this process or, with
  // SIGHTLINE_ROLE=all, in a child process, off the API's event loop.
  const worker = workerDb
    ? await startWorker(
        { ...running.deps.services, db: workerDb.db, databaseUrl: database.url },
        settings,
      )
    : undefined;
  const workerChild: WorkerChild | undefined =
    role === "all"
      ? startWorkerChild({
          entry: fileURLToPath(import.meta.url),
          databaseUrl: database.url,
          logger,
        })
      : undefined;
  undo.length = 0;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainSeconds: config.SIGHTLINE_DRAIN_SECONDS }, "shutting down");
    // No new connection; the requests already read are answered before the pools close (a
    // request longer than SIGHTLINE_REQUEST_TIMEOUT_SECONDS is cut off by the server anyway).
    const answered = new Promise<void>((resolve) =>
      server ? server.close(() => resolve()) : resolve(),
    );
    // Running analyses finish (up to the drain time), those still running then are handed back
    // to run again at once elsewhere; jobs not yet taken stay queued.
    await workerChild?.stop((config.SIGHTLINE_DRAIN_SECONDS + 40) * 1000);
    await drainJobQueue(boss, worker?.leases, config.SIGHTLINE_DRAIN_SECONDS * 1000);
    await Promise.race([
      answered,
      new Promise((resolve) =>
        setTimeout(resolve, (config.SIGHTLINE_REQUEST_TIMEOUT_SECONDS + 5) * 1000).unref(),
      ),
    ]);
    await running.close();
    await workerDb?.close();
    await database.stop();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  // The worker child of a start command stops when its parent is gone.
  if (process.send) process.on("disconnect", () => void shutdown("parent gone"));
}

main().catch(async (error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  for (const step of undo.reverse()) await step().catch(() => {});
  process.exit(1);
});
