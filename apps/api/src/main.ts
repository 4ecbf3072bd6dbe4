import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { serve } from "@hono/node-server";
import { runMigrations, startEmbeddedPostgres } from "@sightline/db";
import { createApp } from "./app.ts";
import { parseConfig } from "./config.ts";
import { connectAppDeps } from "./deps.ts";
import { createLogger, type Logger } from "./logger.ts";

/** The operator key from the environment, or one generated once and kept in the data dir. */
async function loadAdminKey(configured: string | undefined, dataDir: string, logger: Logger) {
  if (configured) return configured;
  const file = path.resolve(dataDir, "admin-key");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const key = `sl_admin_${randomBytes(32).toString("base64url")}`;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  logger.warn("SIGHTLINE_ADMIN_KEY is unset: generated an operator key", { file });
  return key;
}

async function main() {
  const config = parseConfig(process.env);
  const logger = createLogger({ level: config.LOG_LEVEL, bindings: { service: "sightline-api" } });
  const dataDir = path.resolve(config.SIGHTLINE_DATA_DIR);
  let databaseUrl = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const pgLogger = logger.child({ component: "embedded-postgres" });
    const embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, "postgres"),
      onLog: (message) => pgLogger.debug(message),
    });
    databaseUrl = embedded.url;
    stopEmbedded = embedded.stop;
    logger.info("embedded Postgres started", {
      dataDir: path.join(dataDir, "postgres"),
      port: embedded.port,
    });
  }
  await runMigrations(databaseUrl);
  const adminKey = await loadAdminKey(config.SIGHTLINE_ADMIN_KEY, dataDir, logger);
  const running = await connectAppDeps({ databaseUrl, adminKey, logger });
  const app = createApp(running.deps);
  const server = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, (info) =>
    logger.info("listening", {
      url: `http://${config.HOST}:${info.port}`,
      docs: `http://${config.HOST}:${info.port}/docs`,
    }),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    server.close();
    await running.close();
    await stopEmbedded?.();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
