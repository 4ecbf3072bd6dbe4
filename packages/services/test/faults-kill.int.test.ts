import { randomBytes } from "node:crypto";
import { smallAccount } from "@sightline/aws-fake";
import { getExecution, rawQuery } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { AlertDestinationsBody, type ExecutionStage } from "@sightline/domain";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { localMasterKey } from "../src/credentials/master-key.ts";
import { DEFAULT_LEASE_SETTINGS } from "../src/queue/lease-keeper.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { holdLock, someoneWaits, startHoldingReceiver, until } from "./support/fault-holds.ts";
import {
  childWarnings,
  killAllWorkers,
  standbyWorker,
  type WorkerChild,
  type WorkerOptions,
} from "./support/fault-workers.ts";
import { checkInvariants } from "./support/invariants.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

// kill -9 of a worker at each stage of an analysis, and while it sends an alert; after each, the
// invariants. Each kill is held at its stage (a lock, a slow call, a write that never ends), so
// that the worker dies there; a worker standing by takes over once the short lease (lost after
// 2 s) lapses. pg-boss's expiry is 10 minutes: only the lease brings a job back.
// The suite has a database of its own: its locks hold up no other test.
const bucket = smallAccount.INBOX_BUCKET;
const database = await createTestDatabase(inject("databaseUrl"));
const receiver = await startHoldingReceiver();
const masterKey = randomBytes(32);
const alerts = {
  allowedHosts: [{ host: "127.0.0.1", port: receiver.port }],
  caCertificates: [receiver.cert],
  retry: { limit: 2, delaySeconds: 1 },
  requestTimeoutMs: 30_000,
};
let pipeline: Pipeline;
let partner: Awaited<ReturnType<Pipeline["partner"]>>;
let workerOptions: WorkerOptions;
/** The worker taking jobs now (idle between tests), and one standing by. */
let current: WorkerChild | undefined;
let spare: Promise<WorkerChild>;
/** A worker whose report files never finish writing, standing by for its test. */
let holdingWrites: Promise<WorkerChild>;
/** Seconds from each kill to the end of its execution (or its alert's delivery). */
const recoveries: Record<string, number> = {};

beforeAll(async () => {
  pipeline = await startPipeline({
    databaseUrl: database.url,
    worker: false,
    alerts,
    queue: {
      expireInSeconds: 600,
      lease: { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.5, lostAfterSeconds: 2 },
    },
  });
  partner = await pipeline.partner({
    featureFlags: { latestReportEnabled: true, hiveEnabled: true },
  });
  // The destination's secret is sealed with a key the worker processes are given too.
  await putAlertDestinations(
    { ...pipeline.ctx, masterKey: localMasterKey(masterKey) },
    { kind: "partner", partnerId: partner.partnerId },
    AlertDestinationsBody.parse({
      destinations: [{ name: "security team", kind: "webhook", url: receiver.url }],
    }),
  );
  workerOptions = {
    databaseUrl: pipeline.databaseUrl,
    schema: pipeline.schema,
    settings: { ...pipeline.settings, pollingIntervalSeconds: 0.5 },
    alerts,
    masterKeyHex: masterKey.toString("hex"),
  };
  spare = standby();
  holdingWrites = standby({ holdWrites: true });
  current = await standbyWorker(workerOptions);
  await current.start();
}, 180_000);

afterAll(async () => {
  await killAllWorkers();
  await pipeline?.close();
  await receiver.close();
  await database.dispose();
  console.log(`recovery after kill -9 (s): ${JSON.stringify(recoveries)}`);
});

/** The next worker standing by (a test ending while it starts is no failure). */
function standby(options: { holdWrites?: boolean } = {}): Promise<WorkerChild> {
  const started = standbyWorker({ ...workerOptions, ...options });
  started.catch(() => {});
  return started;
}

const trigger = async () =>
  (
    await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    })
  ).executionId;

const stageOf = async (executionId: string) =>
  (await getExecution(pipeline.ctx.db, executionId))?.stage;

/** Kills the working worker, and starts the one standing by (another stands by behind it). */
async function killAndTakeOver(): Promise<number> {
  await current?.kill();
  const killedAt = Date.now();
  current = await spare;
  spare = standby();
  await current.start();
  return killedAt;
}

async function expectInvariants(executionIds: string[]) {
  const report = await checkInvariants({
    db: pipeline.ctx.db,
    executionIds,
    inbox: { kind: "s3", fake: pipeline.fake, bucket },
    workDir: pipeline.settings.analysis.workDir,
    receivers: [receiver],
    endWithinSeconds: 60,
  });
  expect(report.violations, childWarnings.slice(-5).join("\n")).toEqual([]);
}

/** Runs an analysis, kills its worker once `held` says it is at `stage`, checks it recovers. */
async function killAt(
  stage: ExecutionStage,
  held: (executionId: string) => Promise<boolean>,
  release: () => Promise<void> = async () => {},
) {
  const executionId = await trigger();
  await until(
    async () => (await stageOf(executionId)) === stage && (await held(executionId)),
    60,
    `the attempt held at ${stage}`,
  );
  const killedAt = await killAndTakeOver();
  await release();
  await expectInvariants([executionId]);
  const execution = await getExecution(pipeline.ctx.db, executionId);
  expect(execution).toMatchObject({ status: "succeeded", attempts: 2 });
  expect(execution?.warnings.map((w) => w.code)).toContain("WORKER_LOST");
  recoveries[stage] = ((execution?.finishedAt?.getTime() ?? 0) - killedAt) / 1000;
  return executionId;
}

const pendingCall = (operation: string) => () =>
  pipeline.fake.calls.some((c) => c.operation === operation && c.status === 0);

describe("kill -9 of a worker", () => {
  it("while collecting: the account is collected again and delivered once", async () => {
    pipeline.fake.inject({
      operation: "GetAccountAuthorizationDetails",
      kind: "delay",
      delayMs: 120_000,
      times: 1,
    });
    await killAt("collecting", async () => pendingCall("GetAccountAuthorizationDetails")());
  });

  it("while analysing", async () => {
    const lock = await holdLock(
      database.url,
      "lock table review_settings in access exclusive mode",
    );
    await killAt("analysing", () => someoneWaits(pipeline.ctx.db), lock.release);
  });

  it("while writing the reports", async () => {
    // This attempt's worker writes no file to the end; the one standing by writes them all.
    await current?.kill();
    current = await holdingWrites;
    await current.start();
    await killAt("writing", async () => true);
  });

  it("while storing the results: they are stored once", async () => {
    const lock = await holdLock(
      database.url,
      "lock table analysis_principals in access exclusive mode",
    );
    await killAt("storing", () => someoneWaits(pipeline.ctx.db), lock.release);
  });

  it("while delivering: one manifest, listing what the successor wrote", async () => {
    pipeline.fake.inject({
      service: "s3",
      operation: "PutObject",
      resource: bucket,
      kind: "delay",
      delayMs: 120_000,
      after: 4,
      times: 1,
    });
    await killAt("delivering", async () => pendingCall("PutObject")());
  });

  it("while enqueuing alerts, then while sending one: one alert, the same ID both times", async () => {
    // Bob becomes an administrator: the next analysis has a change every destination hears of.
    pipeline.fake.control.makeAdmin("bob");
    const [destination] = await pipeline.ctx.db.execute(
      rawQuery("select destination_id as id from alert_destinations where partner_id = $1", [
        partner.partnerId,
      ]),
    );
    // The enqueue's transaction waits for the destination's lock, which the test holds.
    const lock = await holdLock(
      database.url,
      `select pg_advisory_xact_lock(4842774, hashtext('${String(destination?.id)}'))`,
    );
    receiver.hold(true);
    const executionId = await killAt("alerting", () => someoneWaits(pipeline.ctx.db), lock.release);

    // The worker that took over enqueued the alert and sends it; the receiver takes it and
    // holds its answer: kill that worker too.
    await until(() => receiver.received.length >= 1, 60, "the alert reaches the receiver");
    const killedAt = await killAndTakeOver();
    receiver.hold(false);
    receiver.answerHeld();
    await until(() => receiver.received.length >= 2, 60, "the alert is sent again");
    const ids = receiver.received.map((r) => r.headers["sightline-alert-id"]);
    expect(new Set(ids).size).toBe(1);
    const delivered = await until(
      async () => {
        const [row] = await pipeline.ctx.db.execute(
          rawQuery(
            `select status, extract(epoch from updated_at) * 1000 as at from alert_deliveries
             where execution_id = $1`,
            [executionId],
          ),
        );
        return row?.status === "delivered" && Number(row.at);
      },
      60,
      "the alert delivered",
    );
    recoveries.sending = (delivered - killedAt) / 1000;
    await expectInvariants([executionId]);
  }, 180_000);
});
