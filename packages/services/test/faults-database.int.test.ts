import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { smallAccount } from "@sightline/aws-fake";
import { createDb, rawQuery, runMigrations, startEmbeddedPostgres } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { describe, expect, inject, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { until } from "./support/fault-holds.ts";
import { checkInvariants } from "./support/invariants.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

// The database failing under running analyses: restarted (a cluster of the test's own, never the
// server the other tests share), and its connections cut again and again. Every execution ends,
// and the invariants hold.
const bucket = smallAccount.INBOX_BUCKET;
/** How long the restarted Postgres stays down: the fault itself, not a wait. */
const OUTAGE_MS = 6000;

async function analysesOf(pipeline: Pipeline, partners: number) {
  const ids: string[] = [];
  for (let i = 0; i < partners; i++) {
    const partner = await pipeline.partner({
      featureFlags: { latestReportEnabled: true, hiveEnabled: true },
    });
    const started = await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    ids.push(started.executionId);
  }
  return ids;
}

async function expectInvariants(pipeline: Pipeline, executionIds: string[]) {
  const report = await checkInvariants({
    db: pipeline.ctx.db,
    executionIds,
    inbox: { kind: "s3", fake: pipeline.fake, bucket },
    workDir: pipeline.settings.analysis.workDir,
    endWithinSeconds: 90,
  });
  expect(report.violations).toEqual([]);
  return Promise.all(executionIds.map((id) => pipeline.finished(id)));
}

describe("the database failing", () => {
  it("Postgres restarting in the middle of a delivery: the analyses end, delivered once", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-restart-"));
    await chmod(dir, 0o755); // as root, Postgres runs as the postgres user
    const dataDir = path.join(dir, "postgres");
    let server = await startEmbeddedPostgres({ dataDir });
    await runMigrations(server.url);
    const pipeline = await startPipeline({ databaseUrl: server.url });
    try {
      pipeline.fake.inject({
        operation: "PutObject",
        resource: bucket,
        kind: "delay",
        delayMs: 2000,
        after: 3,
        times: 1,
      });
      const executionIds = await analysesOf(pipeline, 2);
      await until(
        () => pipeline.fake.calls.some((c) => c.operation === "PutObject" && c.status === 0),
        60,
        "a delivery under way",
      );
      // Down for longer than the lease's life (4 s): the running attempt loses its lease.
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      server = await startEmbeddedPostgres({ dataDir, port: server.port });
      const ended = await expectInvariants(pipeline, executionIds);
      expect(ended.map((e) => e.status)).toEqual(["succeeded", "succeeded"]);
      // The running one lost its lease while the database was down, and ran again.
      expect(ended[0]?.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await pipeline.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("its connections terminated again and again under load: every analysis ends", async () => {
    const database = await createTestDatabase(inject("databaseUrl"));
    const admin = createDb(database.url, { maxConnections: 1 });
    const pipeline = await startPipeline({ databaseUrl: database.url });
    try {
      const executionIds = await analysesOf(pipeline, 3);
      // Every connection but the admin's, every half second, until the analyses are under way
      // and three seconds more.
      const cut = async () =>
        admin.db.execute(
          rawQuery(
            `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid()`,
            [],
          ),
        );
      const until3s = Date.now() + 3000;
      let cuts = 0;
      while (Date.now() < until3s || cuts < 6) {
        const [row] = await cut();
        cuts += Number(row?.n) > 0 ? 1 : 0;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await expectInvariants(pipeline, executionIds);
    } finally {
      await pipeline.close();
      await admin.close();
      await database.dispose();
    }
  }, 180_000);
});
