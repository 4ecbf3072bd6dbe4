import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { MIGRATION_COUNT } from "./migrate.ts";
import * as schema from "./schema.ts";

export type Database = PostgresJsDatabase<typeof schema>;
/** A database or an open transaction: every verb accepts either. */
export type Executor = Pick<
  Database,
  "select" | "selectDistinctOn" | "insert" | "update" | "delete" | "execute" | "transaction"
>;

export interface DbHandle {
  readonly db: Database;
  /** Resolves when the server answers and its schema carries this build's migrations. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** Pool size; the default suits one API process on a small machine. */
  maxConnections?: number;
  /** Postgres cancels a statement running longer (`statement_timeout`); unbounded when unset. */
  statementTimeoutSeconds?: number;
  /** … or waiting longer for a lock (`lock_timeout`); unbounded when unset. */
  lockTimeoutSeconds?: number;
}

/**
 * How long the pool waits before connecting again after a connection failed, `failures` in a
 * row (its jitter halves it at most): postgres.js's own delay grows to 20 s (3^n / 100 s), so
 * that after a database outage of half a minute each query waited up to 20 s, for a 503 while it
 * lasted and for an answer once the database was back. Capped at 1 s: a refused connection is
 * cheap, and the API answers (503, then 200) within a second or so of the database's state.
 */
export function reconnectDelaySeconds(failures: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** failures, 1);
}

/** Opens a connection pool. No connection is made until the first query. */
export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  const client = postgres(url, {
    max: options.maxConnections ?? 10,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    connection: {
      application_name: "sightline",
      ...(options.statementTimeoutSeconds
        ? { statement_timeout: options.statementTimeoutSeconds * 1000 }
        : {}),
      ...(options.lockTimeoutSeconds ? { lock_timeout: options.lockTimeoutSeconds * 1000 } : {}),
    },
  });
  const db = drizzle(client, { schema });
  return {
    db,
    async ping() {
      // Fails on an empty database too: the migrations table is missing there.
      const [row] = await client<{ n: number }[]>`
        select count(*)::int as n from drizzle.__drizzle_migrations`;
      if ((row?.n ?? 0) < MIGRATION_COUNT)
        throw new Error(`the database has ${row?.n ?? 0} of ${MIGRATION_COUNT} migrations`);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}
