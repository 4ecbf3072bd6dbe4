import { randomBytes } from "node:crypto";
import { silentLogger } from "@sightline/logging";
import type PgBoss from "pg-boss";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ALERT_QUEUE, LOST_ALERT_QUEUE } from "../src/queue/alert-queue.ts";
import {
  ANALYSIS_QUEUE,
  DAILY_ACCOUNT_QUEUE,
  DAILY_QUEUE,
  DEFAULT_QUEUE_SETTINGS,
  LOST_ANALYSIS_QUEUE,
  MAINTENANCE_QUEUE,
} from "../src/queue/analysis-queue.ts";
import { startJobQueue } from "../src/runtime/start-job-queue.ts";

const started: PgBoss[] = [];
afterAll(() => Promise.all(started.map((boss) => boss.stop({ graceful: false }))));

describe("processes starting together on a new database", () => {
  it("create the queues once, none failing on the others' (pg-boss's create_queue deadlocks)", async () => {
    // A schema of its own: pg-boss installs it, then every process creates the same queues.
    const schema = `pgboss_${randomBytes(4).toString("hex")}`;
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        startJobQueue({
          databaseUrl: inject("databaseUrl"),
          logger: silentLogger,
          queue: DEFAULT_QUEUE_SETTINGS,
          maintenance: false,
          maxConnections: 2,
          schema,
        }).then((boss) => {
          started.push(boss);
          return boss;
        }),
      ),
    );
    const outcomes = results.map((r) => (r.status === "rejected" ? String(r.reason) : "started"));
    expect(outcomes).toEqual(Array(4).fill("started"));
    const [boss] = started;
    const names = [
      ANALYSIS_QUEUE,
      LOST_ANALYSIS_QUEUE,
      DAILY_QUEUE,
      DAILY_ACCOUNT_QUEUE,
      MAINTENANCE_QUEUE,
      ALERT_QUEUE,
      LOST_ALERT_QUEUE,
    ];
    for (const name of names) expect(await boss?.getQueue(name), name).toMatchObject({ name });
  });
});
