import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "./client.ts";

/** As node-postgres sends parameters: a missing one as null, a plain object as JSON text. */
function asParameter(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "object" && !Array.isArray(value) && !(value instanceof Date))
    return Buffer.isBuffer(value) ? value : JSON.stringify(value);
  return value;
}

/** SQL text with `$1`… placeholders (as node-postgres takes it) as a drizzle query. */
export function rawQuery(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks = parts.map((part, i) =>
    i % 2 === 0 ? sql.raw(part) : sql`${asParameter(values[Number(part) - 1])}`,
  );
  return sql.join(chunks);
}

/** `{ executeSql }` over a transaction, so that a job queue (pg-boss) writes in it too. */
export function sqlExecutorOf(tx: Executor) {
  return {
    async executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
      const rows = await tx.execute(rawQuery(text, values));
      return { rows: [...rows] };
    },
  };
}
