import { sql } from "drizzle-orm";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema.ts";

export type Database = PostgresJsDatabase<typeof schema>;
/** A database or an open transaction: every verb accepts either. */
export type Executor = Pick<
  Database,
  "select" | "selectDistinctOn" | "insert" | "update" | "delete" | "execute" | "transaction"
>;

export interface DbHandle {
  readonly db: Database;
  /** Resolves when the server answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** Pool size; the default suits one API process on a small machine. */
  maxConnections?: number;
}

/** Opens a connection pool. No connection is made until the first query. */
export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  const client = postgres(url, {
    max: options.maxConnections ?? 10,
    onnotice: () => {},
    connection: { application_name: "sightline" },
  });
  const db = drizzle(client, { schema });
  return {
    db,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}
