import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));
/** How many migrations this build carries: a database with fewer is not ready for it. */
export const MIGRATION_COUNT: number = (
  JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, "utf8")) as {
    entries: unknown[];
  }
).entries.length;

/** Any fixed number: it names the lock that serialises concurrent start-ups. */
const MIGRATION_LOCK_ID = 4_842_771;

/**
 * Applies the committed SQL migrations. An advisory lock makes concurrent start-ups (several
 * API or worker processes, parallel test runs) apply them once, one after the other.
 */
export async function runMigrations(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migrate(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
