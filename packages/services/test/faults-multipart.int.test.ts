import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createS3Inbox } from "@sightline/aws";
import { smallAccount } from "@sightline/aws-fake";
import { acquireJobLease, rawQuery, recordMultipartUpload } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_LEASE_SETTINGS } from "../src/queue/lease-keeper.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { maintenanceHandler } from "../src/worker/maintenance-job.ts";
import { startHoldingReceiver, until } from "./support/fault-holds.ts";
import { KillRunner } from "./support/kill-runner.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

// Issue 34, invariant 4: a worker killed -9 in the middle of a multipart upload leaves it open in
// the partner's bucket (billed, invisible in listings, and the inbox policy grants no listing of
// uploads). Each upload is recorded before its first part: the next attempt aborts its
// execution's, maintenance those of attempts that no longer hold their lease.
const database = await createTestDatabase(inject("databaseUrl"));
const receiver = await startHoldingReceiver();
let pipeline: Pipeline;
let partner: Awaited<ReturnType<Pipeline["partner"]>>;
let runner: KillRunner;

beforeAll(async () => {
  pipeline = await startPipeline({
    databaseUrl: database.url,
    worker: false,
    queue: {
      expireInSeconds: 600,
      lease: { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.5, lostAfterSeconds: 2 },
    },
  });
  partner = await pipeline.partner();
  const { settings } = pipeline;
  runner = await KillRunner.start({
    db: pipeline.ctx.db,
    databaseUrl: database.url,
    fake: pipeline.fake,
    bucket: smallAccount.INBOX_BUCKET,
    workDir: settings.analysis.workDir,
    receiver,
    destinationId: "",
    endWithinSeconds: 60,
    workers: {
      databaseUrl: pipeline.databaseUrl,
      schema: pipeline.schema,
      // Every report file goes as a multipart upload (in one part: each is below 5 MiB).
      settings: {
        ...settings,
        analysis: { ...settings.analysis, delivery: { multipartThresholdBytes: 1 } },
      },
    },
  });
}, 180_000);

afterAll(async () => {
  await runner?.close();
  await pipeline?.close();
  await receiver.close();
  await database.dispose();
});

/** The fake's uploads neither completed nor aborted under `prefix`. */
const openUnder = (prefix: string) =>
  [...pipeline.fake.uploads.entries()]
    .filter(([, u]) => u.bucket === smallAccount.INBOX_BUCKET && u.key.startsWith(prefix))
    .map(([id]) => id);

const recorded = async () =>
  (await pipeline.ctx.db.execute(rawQuery("select upload_id from open_multipart_uploads", []))).map(
    (r) => String(r.upload_id),
  );

describe("kill -9 of a worker in the middle of a multipart upload", () => {
  it("the next attempt aborts the upload left open, and delivers once", async () => {
    const prefix = `customers/${partner.customerId}/`;
    const outcome = await runner.killAt(
      "delivering",
      async () =>
        (
          await triggerAnalysis(pipeline.ctx, {
            owner: { kind: "partner", ...partner },
            accountId: smallAccount.ACCOUNT_ID,
            kind: "ondemand",
          })
        ).executionId,
      async () => {
        // The first part sent never gets its answer: the upload stays open when the worker dies.
        pipeline.fake.inject({
          service: "s3",
          operation: "UploadPart",
          resource: smallAccount.INBOX_BUCKET,
          kind: "delay",
          delayMs: 600_000,
          times: 1,
        });
        return {
          held: async () =>
            pipeline.fake.calls.some((c) => c.operation === "UploadPart" && c.status === 0) &&
            openUnder(prefix).length > 0 &&
            (await recorded()).length > 0,
          release: async () => {},
        };
      },
    );
    // The invariant checker names an incomplete upload under the customer's prefix (4).
    expect(outcome.violations, KillRunner.recentWarnings()).toEqual([]);
    expect(outcome).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(outcome.warnings).toContain("WORKER_LOST");
    expect(openUnder(prefix)).toEqual([]);
    expect(await recorded()).toEqual([]);
    const completed = pipeline.fake.calls.filter(
      (c) => c.operation === "CompleteMultipartUpload" && c.status === 200,
    );
    expect(completed.length).toBeGreaterThan(0);
    const aborts = pipeline.fake.calls.filter((c) => c.operation === "AbortMultipartUpload");
    expect(aborts.map((c) => c.status)).toEqual([204]);
  }, 240_000);
});

describe("maintenance", () => {
  /** Starts a multipart upload recorded for (execution, attempt) and left open, as by a kill. */
  async function leftOpen(executionId: string, key: string): Promise<string> {
    const file = path.join(pipeline.dataDir, `${randomUUID()}.csv`);
    await writeFile(file, "a,b\n");
    let started = (_: string) => {};
    const uploadId = new Promise<string>((resolve) => {
      started = resolve;
    });
    const inbox = createS3Inbox({
      bucket: smallAccount.INBOX_BUCKET,
      kmsKeyId: smallAccount.INBOX_KEY_ARN,
      credentials: pipeline.fake.serviceCredentials,
      clientOptions: pipeline.fake.clientOptions,
      multipartThresholdBytes: 1,
      multipartUploads: {
        started: async (upload) => {
          await recordMultipartUpload(pipeline.ctx.db, { ...upload, executionId, attempt: 1 });
          started(upload.uploadId);
          // The process dies here: no part is sent, the upload is neither completed nor aborted.
          await new Promise(() => {});
        },
        ended: async () => {},
      },
    });
    void inbox.putFile(key, file, {
      contentType: "text/csv",
      sha256: "0".repeat(64),
    });
    return uploadId;
  }

  const insertExecution = (executionId: string, status: string) =>
    pipeline.ctx.db.execute(
      rawQuery(
        `insert into executions (execution_id, kind, customer_id, account_id, provider, auth_method,
           status, attempts) values ($1, 'ondemand', 'maintenance-test', $2, 'aws', 'config', $3, 1)`,
        [executionId, String(Math.floor(Math.random() * 1e12)).padStart(12, "0"), status],
      ),
    );

  it("aborts old uploads of attempts without a lease, and keeps the others", async () => {
    const prefix = "customers/maintenance-test/";
    const ended = `ex-${randomUUID()}`;
    const leased = `ex-${randomUUID()}`;
    await insertExecution(ended, "failed");
    await insertExecution(leased, "running");
    await acquireJobLease(pipeline.ctx.db, {
      jobId: randomUUID(),
      queue: "analysis",
      queueSchema: "maintenance_test",
      owner: "a worker still alive",
      executionId: leased,
      lostAfterSeconds: 600,
    });
    const abandoned = await leftOpen(ended, `${prefix}abandoned.csv`);
    const stillUploading = await leftOpen(leased, `${prefix}still-uploading.csv`);
    const recent = await leftOpen(ended, `${prefix}recent.csv`);
    await pipeline.ctx.db.execute(
      rawQuery(
        `update open_multipart_uploads set created_at = now() - interval '1 hour'
         where upload_id in ($1, $2)`,
        [abandoned, stillUploading],
      ),
    );
    await until(() => openUnder(prefix).length === 3, 10, "three uploads open");

    await maintenanceHandler(pipeline.ctx, 30, pipeline.settings.analysis)();

    expect(openUnder(prefix).sort()).toEqual([stillUploading, recent].sort());
    expect((await recorded()).sort()).toEqual([stillUploading, recent].sort());
  });
});
