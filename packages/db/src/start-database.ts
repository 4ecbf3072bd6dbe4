import path from "node:path";
import type { Logger } from "@sightline/logging";
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from "./embedded.ts";
import { runMigrations } from "./migrate.ts";

export interface StartedDatabase {
  /** Where the migrated database answers. */
  url: string;
  /** Stops the embedded Postgres, if one was started; a no-op for DATABASE_URL. */
  stop(): Promise<void>;
}

/**
 * The start-up sequence every process shares: the configured server, or an embedded Postgres in
 * `<dataDir>/postgres`; then the committed migrations, under the lock that lets several
 * processes start together.
 */
export async function startDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<StartedDatabase> {
  let url = options.databaseUrl;
  let stop = async () => {};
  if (!url) {
    const dataDir = path.join(path.resolve(options.dataDir), "postgres");
    const pgLogger = options.logger.child({ component: "embedded-postgres" });
    if (await runningEmbeddedPostgresUrl(dataDir))
      throw new Error(
        `The embedded Postgres in ${dataDir} is already running: another Sightline process uses this data directory (SIGHTLINE_DATA_DIR). Stop it, give this process a data directory of its own, or set DATABASE_URL so that several processes share one Postgres`,
      );
    const embedded = await startEmbeddedPostgres({
      dataDir,
      onLog: (message) => pgLogger.debug(message),
    }).catch((error: unknown) => {
      // embedded-postgres rejects with nothing when the server exits during start-up.
      if (error instanceof Error) throw error;
      throw new Error(
        `The embedded Postgres in ${dataDir} did not start; run with LOG_LEVEL=debug to see its log`,
      );
    });
    url = embedded.url;
    stop = embedded.stop;
    options.logger.info({ dataDir, port: embedded.port }, "embedded Postgres started");
  }
  await runMigrations(url);
  return { url, stop };
}

/**
 * The service's database for a short command beside it (the CLI): `DATABASE_URL`; else the
 * embedded Postgres the running service keeps in `<dataDir>/postgres`; else that embedded
 * Postgres started for the command and stopped by `stop`. Migrated in every case.
 */
export async function openServiceDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<StartedDatabase> {
  if (!options.databaseUrl) {
    const running = await runningEmbeddedPostgresUrl(
      path.join(path.resolve(options.dataDir), "postgres"),
    );
    if (running) {
      options.logger.info("using the embedded Postgres of the running service");
      await runMigrations(running);
      return { url: running, stop: async () => {} };
    }
  }
  return startDatabase(options);
}
