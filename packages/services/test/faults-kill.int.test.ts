import { randomBytes } from "node:crypto";
import { smallAccount } from "@sightline/aws-fake";
import { createTestDatabase } from "@sightline/db/testing";
import { AlertDestinationsBody, type ExecutionStage } from "@sightline/domain";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { localMasterKey } from "../src/credentials/master-key.ts";
import { DEFAULT_LEASE_SETTINGS } from "../src/queue/lease-keeper.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startHoldingReceiver } from "./support/fault-holds.ts";
import { type KillOutcome, KillRunner } from "./support/kill-runner.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

// kill -9 of a worker at each stage of an analysis, and while it sends an alert; after each, the
// invariants. Each kill is held at its stage (a lock, a slow call, a write that never ends), so
// that the worker dies there; a worker standing by takes over once the short lease (lost after
// 2 s) lapses. pg-boss's expiry is 10 minutes: only the lease brings a job back.
// The suite has a database of its own: its locks hold up no other test.
const database = await createTestDatabase(inject("databaseUrl"));
const receiver = await startHoldingReceiver();
const masterKey = randomBytes(32);
const alerts = receiver.alertSettings();
let pipeline: Pipeline;
let partner: Awaited<ReturnType<Pipeline["partner"]>>;
let runner: KillRunner;
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
  const { destinations } = await putAlertDestinations(
    { ...pipeline.ctx, masterKey: localMasterKey(masterKey) },
    { kind: "partner", partnerId: partner.partnerId },
    AlertDestinationsBody.parse({
      destinations: [{ name: "security team", kind: "webhook", url: receiver.url }],
    }),
  );
  runner = await KillRunner.start({
    db: pipeline.ctx.db,
    databaseUrl: database.url,
    fake: pipeline.fake,
    bucket: smallAccount.INBOX_BUCKET,
    workDir: pipeline.settings.analysis.workDir,
    receiver,
    destinationId: destinations[0]?.destinationId as string,
    endWithinSeconds: 60,
    workers: {
      databaseUrl: pipeline.databaseUrl,
      schema: pipeline.schema,
      settings: { ...pipeline.settings, pollingIntervalSeconds: 0.5 },
      alerts,
      masterKeyHex: masterKey.toString("hex"),
    },
  });
}, 180_000);

afterAll(async () => {
  await runner?.close();
  await pipeline?.close();
  await receiver.close();
  await database.dispose();
  console.log(`recovery after kill -9 (s): ${JSON.stringify(recoveries)}`);
});

const trigger = async () =>
  (
    await triggerAnalysis(pipeline.ctx, {
      owner: { kind: "partner", ...partner },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    })
  ).executionId;

/** The attempt that took over succeeded; nothing is lost, doubled or left over. */
function expectRecovered(outcome: KillOutcome, name: string) {
  expect(outcome.violations, KillRunner.recentWarnings()).toEqual([]);
  expect(outcome).toMatchObject({ status: "succeeded", attempts: 2 });
  expect(outcome.warnings).toContain("WORKER_LOST");
  recoveries[name] = outcome.recoverySeconds;
}

describe("kill -9 of a worker", () => {
  it.each<ExecutionStage>(["collecting", "analysing", "writing", "storing", "delivering"])(
    "while %s: another worker runs the job at once, and delivers once",
    async (stage) => {
      expectRecovered(await runner.killAt(stage, trigger), stage);
    },
  );

  it("while enqueuing alerts, then while sending one: one alert, the same ID both times", async () => {
    // Bob becomes an administrator: the next analysis has a change the destination hears of.
    pipeline.fake.control.makeAdmin("bob");
    receiver.hold(true);
    const enqueued = await runner.killAt("alerting", trigger);
    expectRecovered(enqueued, "alerting");
    // The worker that took over enqueued the alert and sends it; the receiver takes it and
    // holds its answer: that worker is killed too, and the next one sends it again.
    const sent = await runner.killWhileSending(enqueued.executionId);
    expect(sent.violations, KillRunner.recentWarnings()).toEqual([]);
    expect(sent.alertIds).toHaveLength(2);
    expect(new Set(sent.alertIds).size).toBe(1);
    recoveries.sending = sent.recoverySeconds;
  }, 180_000);
});
