import { randomBytes } from "node:crypto";
import { createDb, rawQuery } from "@sightline/db";
import { silentLogger } from "@sightline/logging";
import type PgBoss from "pg-boss";
import { afterAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_LEASE_SETTINGS, LeaseKeeper } from "../src/queue/lease-keeper.ts";
import { drainJobQueue } from "../src/runtime/drain-job-queue.ts";
import { startJobQueue } from "../src/runtime/start-job-queue.ts";
import { until } from "./support/fault-holds.ts";

// An attempt ends, and pg-boss then records the job's outcome. Should the database be gone just
// then, the job stays active: its lease, left to lapse, lets the reaper put it back.
const databaseUrl = inject("databaseUrl");
const database = createDb(databaseUrl, { maxConnections: 2 });
const schema = `pgboss_${randomBytes(4).toString("hex")}`;
const boss = await startJobQueue({
  databaseUrl,
  logger: silentLogger,
  queue: { retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 600 },
  maintenance: false,
  maxConnections: 2,
  schema,
});
await boss.createQueue("release-test");
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
  await database.close();
});
const keeper = new LeaseKeeper(
  { db: database.db, boss, logger: silentLogger },
  { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.2, lostAfterSeconds: 1 },
  schema,
);

/** Runs one job's attempt under the keeper, as pg-boss would, but records no outcome. */
async function attempt(): Promise<PgBoss.JobWithMetadata<object>> {
  await boss.send("release-test", {});
  const [job] = await boss.fetch<object>("release-test", { includeMetadata: true });
  if (!job) throw new Error("no job fetched");
  await keeper.handler("release-test", "alert", async () => {})([job]);
  return job;
}

const states = async () =>
  (
    await database.db.execute(
      rawQuery(
        `select state from "${schema}".job where name = 'release-test' order by created_on`,
        [],
      ),
    )
  ).map((row) => String(row.state));

describe("the lease of an attempt that has ended", () => {
  it("puts the job back when its outcome was never recorded, and only drops the lease once it was", async () => {
    const lost = await attempt();
    await until(async () => (await keeper.reap()) > 0, 30, "the unrecorded job put back");
    const [job] = await database.db.execute(
      rawQuery(`select state from "${schema}".job where id = $1`, [lost.id]),
    );
    expect(job?.state).toBe("cancelled");
    expect(await states()).toContain("created");

    const recorded = await attempt();
    await boss.complete("release-test", recorded.id);
    await until(
      async () => {
        await keeper.reap();
        const [row] = await database.db.execute(
          rawQuery("select count(*)::int as n from job_leases where job_id = $1", [recorded.id]),
        );
        return Number(row?.n) === 0;
      },
      30,
      "the recorded job's lease dropped",
    );
    const [after] = await database.db.execute(
      rawQuery(`select state from "${schema}".job where id = $1`, [recorded.id]),
    );
    expect(after?.state).toBe("completed");
  });

  it("a worker whose drain runs out hands its running job back: run again at once, no retry counted", async () => {
    const drainSchema = `pgboss_${randomBytes(4).toString("hex")}`;
    const draining = await startJobQueue({
      databaseUrl,
      logger: silentLogger,
      queue: { retryLimit: 1, retryDelaySeconds: 600, expireInSeconds: 600 },
      maintenance: false,
      maxConnections: 2,
      schema: drainSchema,
    });
    await draining.createQueue("drain-test");
    const leases = new LeaseKeeper(
      { db: database.db, boss: draining, logger: silentLogger },
      { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.2, lostAfterSeconds: 60 },
      drainSchema,
    );
    // A job that runs until its attempt is stopped.
    await draining.work(
      "drain-test",
      { pollingIntervalSeconds: 0.5, batchSize: 1, includeMetadata: true },
      leases.handler(
        "drain-test",
        "alert",
        (_job, lease) =>
          new Promise<void>((resolve) => lease.signal.addEventListener("abort", () => resolve())),
      ),
    );
    const jobId = await draining.send("drain-test", {});
    await until(
      async () => {
        const [row] = await database.db.execute(
          rawQuery("select count(*)::int as n from job_leases where job_id = $1", [jobId]),
        );
        return Number(row?.n) > 0;
      },
      30,
      "the job running",
    );
    await drainJobQueue(draining, leases, 500);
    const jobs = await database.db.execute(
      rawQuery(
        `select state, retry_count as "retryCount", start_after <= now() as due
         from "${drainSchema}".job where name = 'drain-test' order by created_on, state`,
        [],
      ),
    );
    expect(jobs.map((j) => [j.state, j.retryCount, j.due]).sort()).toEqual([
      ["cancelled", 0, true],
      ["created", 0, true],
    ]);
  });
});
