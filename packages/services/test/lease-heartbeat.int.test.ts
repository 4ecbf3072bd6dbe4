import { randomUUID } from "node:crypto";
import { createDb, rawQuery } from "@sightline/db";
import { silentLogger } from "@sightline/logging";
import type PgBoss from "pg-boss";
import { afterAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_LEASE_SETTINGS, LeaseKeeper } from "../src/queue/lease-keeper.ts";

const databaseUrl = inject("databaseUrl");
const database = createDb(databaseUrl, { maxConnections: 2 });
afterAll(() => database.close());
const settings = { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.2, lostAfterSeconds: 2 };

/** Holds the thread for `ms` without yielding, as building a large account's model does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** Whether the job's lease, read now, is still unexpired (another worker would not reap it). */
async function unexpired(jobId: string): Promise<boolean> {
  const [row] = await database.db.execute(
    rawQuery("select expires_at > now() as alive from job_leases where job_id = $1", [jobId]),
  );
  return row?.alive === true;
}

/** Whether the lease was renewed since it was taken. */
async function renewed(jobId: string): Promise<boolean> {
  const [row] = await database.db.execute(
    rawQuery("select renewed_at > started_at as renewed from job_leases where job_id = $1", [
      jobId,
    ]),
  );
  return row?.renewed === true;
}

async function leaseAfterBlocking(withThread: boolean): Promise<boolean> {
  const keeper = new LeaseKeeper(
    {
      db: database.db,
      boss: {} as PgBoss,
      logger: silentLogger,
      ...(withThread ? { databaseUrl } : {}),
    },
    settings,
    `heartbeat_${randomUUID().slice(0, 8)}`,
  );
  keeper.start();
  let alive = false;
  const job = { id: randomUUID(), data: {} } as PgBoss.JobWithMetadata<object>;
  await keeper.handler("heartbeat-test", "analysis", async () => {
    // Once the lease has been renewed (the thread has started), hold the main thread for twice
    // the lease's life.
    const deadline = Date.now() + 60_000;
    while (!(await renewed(job.id)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    busy(4000);
    alive = await unexpired(job.id);
  })([job]);
  keeper.stop();
  return alive;
}

describe("the lease heartbeat", () => {
  it("keeps renewing from its own thread while the main thread is held for longer than the lease", async () => {
    expect(await leaseAfterBlocking(true)).toBe(true);
  });

  it("(without the thread, the same hold lets the lease expire: what another worker would reap)", async () => {
    expect(await leaseAfterBlocking(false)).toBe(false);
  });
});
