/**
 * The alternative the API did not take, kept to measure it (`BENCH_RATE_LIMITS=postgres`): token
 * buckets shared by every API process through Postgres, one UPSERT per request on an UNLOGGED
 * table that refills and takes a token atomically (the client's and the key's bucket in one
 * statement). See "Several API processes" in docs/operating.md for the figures.
 */
import { createHash } from "node:crypto";
import { type Database, rawQuery } from "@sightline/db";

const TABLE = "bench_shared_rate_buckets";

export async function createSharedBucketsTable(db: Database): Promise<void> {
  await db.execute(
    rawQuery(
      `CREATE UNLOGGED TABLE IF NOT EXISTS ${TABLE} (
         name text PRIMARY KEY, tokens double precision NOT NULL, at timestamptz NOT NULL,
         allowed boolean NOT NULL)`,
      [],
    ),
  );
}

// refilled = least(burst, tokens + elapsed × rate); a request is allowed when refilled ≥ 1.
const refilled = `least($2::float8, b.tokens + extract(epoch from clock_timestamp() - b.at) * $3::float8)`;
const TAKE = `
  INSERT INTO ${TABLE} AS b (name, tokens, at, allowed)
  VALUES ($1, $2::float8 - 1, clock_timestamp(), true), ($4, $5::float8 - 1, clock_timestamp(), true)
  ON CONFLICT (name) DO UPDATE SET
    tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
    at = clock_timestamp(),
    allowed = ${refilled} >= 1
  RETURNING name, tokens, allowed`;

/**
 * One round trip per request: takes a token from the client address's bucket and the key's.
 * (Both buckets get the same rate here, which is enough to measure the cost.)
 */
export function sharedBuckets(db: Database, perSecond: number, burst: number) {
  return async (clientAddress: string, authorization: string | undefined): Promise<boolean> => {
    const key = createHash("sha256")
      .update(authorization ?? "")
      .digest("hex");
    const rows = (await db.execute(
      rawQuery(TAKE, [`client:${clientAddress}`, burst, perSecond, `key:${key}`, burst]),
    )) as unknown as { allowed: boolean }[];
    return rows.every((row) => row.allowed);
  };
}
