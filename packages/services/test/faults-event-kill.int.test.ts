import { randomBytes } from "node:crypto";
import { smallAccount } from "@sightline/aws-fake";
import {
  findActiveExecution,
  getEventSource,
  getExecution,
  getSnapshotOfExecution,
  listAppliedEventIds,
  rawQuery,
} from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { AlertDestinationsBody } from "@sightline/domain";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { localMasterKey } from "../src/credentials/master-key.ts";
import { rotateEventToken } from "../src/events/event-sources.ts";
import { eventSourceOfToken, receiveAwsEvent } from "../src/events/receive-aws-event.ts";
import { DEFAULT_LEASE_SETTINGS } from "../src/queue/lease-keeper.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startHoldingReceiver, until } from "./support/fault-holds.ts";
import { KillRunner } from "./support/kill-runner.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

// kill -9 of a worker in the middle of an event step (issue 34 for issue 33's step), held where
// the fault suite holds analyses: on the review settings' lock (its first read after it stored
// its patched snapshot, before its results version), on analysis_principals' (its results
// version begun, no row stored: half stored), on the destination's (its results and changes
// stored, its alert not yet enqueued). A worker standing by takes over once the short lease (lost
// after 2 s) lapses; pg-boss's expiry is 10 minutes, so only the lease brings the step back.
/** The bound: the step has ended (succeeded) this long after the kill. */
const END_WITHIN_SECONDS = 30;
const ACCOUNT = smallAccount.ACCOUNT_ID;
const database = await createTestDatabase(inject("databaseUrl"));
const receiver = await startHoldingReceiver();
const masterKey = randomBytes(32);
const alerts = receiver.alertSettings();
let pipeline: Pipeline;
let runner: KillRunner;
let key: { customerId: string; accountId: string };
let destinationId: string;
/** The account's newest results: what the next step is stepped from. */
let newest: string;
let post: (event: unknown) => Promise<unknown>;
const recoveries: Record<string, number> = {};

beforeAll(async () => {
  pipeline = await startPipeline({
    databaseUrl: database.url,
    model: structuredClone(smallAccount.model),
    worker: false,
    alerts,
    queue: {
      expireInSeconds: 600,
      lease: { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.5, lostAfterSeconds: 2 },
    },
  });
  const partner = await pipeline.partner();
  const owner = { kind: "partner" as const, ...partner };
  key = { customerId: partner.customerId, accountId: ACCOUNT };
  const { destinations } = await putAlertDestinations(
    { ...pipeline.ctx, masterKey: localMasterKey(masterKey) },
    { kind: "partner", partnerId: partner.partnerId },
    AlertDestinationsBody.parse({
      destinations: [{ name: "security team", kind: "webhook", url: receiver.url }],
    }),
  );
  destinationId = destinations[0]?.destinationId as string;
  runner = await KillRunner.start({
    db: pipeline.ctx.db,
    databaseUrl: database.url,
    fake: pipeline.fake,
    bucket: smallAccount.INBOX_BUCKET,
    workDir: pipeline.settings.analysis.workDir,
    receiver,
    destinationId,
    endWithinSeconds: END_WITHIN_SECONDS,
    workers: {
      databaseUrl: pipeline.databaseUrl,
      schema: pipeline.schema,
      settings: { ...pipeline.settings, pollingIntervalSeconds: 0.5 },
      alerts,
      masterKeyHex: masterKey.toString("hex"),
    },
  });
  // The account's stored results and snapshot, which each step patches; carol, a user of it.
  pipeline.fake.control.create("user", "carol");
  const { executionId } = await triggerAnalysis(pipeline.ctx, {
    owner,
    accountId: ACCOUNT,
    kind: "ondemand",
  });
  const baseline = await until(
    async () => (await getExecution(pipeline.ctx.db, executionId))?.finishedAt,
    120,
    "the first analysis ends",
  ).then(() => getExecution(pipeline.ctx.db, executionId));
  expect(baseline?.status).toBe("succeeded");
  newest = executionId;
  const { token } = await rotateEventToken(pipeline.ctx, owner, ACCOUNT, "https://sightline.test");
  const source = await eventSourceOfToken(pipeline.ctx, token);
  post = (event) => receiveAwsEvent(pipeline.ctx, source, event, { quietSeconds: 0.5 });
}, 240_000);

afterAll(async () => {
  await runner?.close();
  await pipeline?.close();
  await receiver.close();
  await database.dispose();
  console.log(`event step's recovery after kill -9 (s): ${JSON.stringify(recoveries)}`);
});

/** The admin-gained change rows of `user` in every execution of the account. */
async function adminGained(user: string) {
  return [
    ...(await pipeline.ctx.db.execute(
      rawQuery(
        `select execution_id as "executionId", change_id as "changeId" from access_changes
         where customer_id = $1 and account_id = $2 and kind = 'iam-admin-gained'
           and change->>'principalArn' = $3`,
        [key.customerId, key.accountId, `arn:aws:iam::${ACCOUNT}:user/${user}`],
      ),
    )),
  ] as { executionId: string; changeId: string }[];
}

/** An execution's results versions: the one stepped from, rows stored, whether compared. */
async function resultsOf(executionId: string) {
  return [
    ...(await pipeline.ctx.db.execute(
      rawQuery(
        `select previous_execution_id as "previous", reach_dictionary_added is not null as stepped,
           changes is not null as compared,
           (select count(*)::int from analysis_principals p where p.execution_id = r.execution_id)
             as "principals"
         from analysis_results r where execution_id = $1`,
        [executionId],
      ),
    )),
  ] as { previous: string | null; stepped: boolean; compared: boolean; principals: number }[];
}

/** What the killed attempt left, as each hold has it. */
const leftByKill = {
  // Its patched snapshot stored, no results yet.
  analysing: async (executionId: string) => {
    expect(await getSnapshotOfExecution(pipeline.ctx.db, executionId)).toBeDefined();
    expect(await resultsOf(executionId)).toEqual([]);
  },
  // A results version begun, none of its rows copied or stored: half-stored. (The header
  // only: the hold locks analysis_principals.)
  storing: async (executionId: string) => {
    const header = await pipeline.ctx.db.execute(
      rawQuery(`select principals, changes from analysis_results where execution_id = $1`, [
        executionId,
      ]),
    );
    expect([...header]).toEqual([{ principals: 0, changes: null }]);
  },
  // Its results and changes stored and compared, its alert not enqueued.
  alerting: async (executionId: string) => {
    const [stored] = await resultsOf(executionId);
    expect(stored).toMatchObject({ stepped: true, compared: true });
    expect(stored?.principals).toBeGreaterThan(0);
    const enqueued = await pipeline.ctx.db.execute(
      rawQuery("select 1 from alert_deliveries where execution_id = $1", [executionId]),
    );
    expect([...enqueued]).toEqual([]);
  },
};

describe("kill -9 of a worker in the middle of an event step", () => {
  it.each([
    { stage: "analysing" as const, user: "bob", where: "after its snapshot, before its results" },
    { stage: "storing" as const, user: "carol", where: "with its results half stored" },
    { stage: "alerting" as const, user: "alice", where: "after its results, before its alert" },
  ])(
    "$where: the step ends once, its change and alert stored once",
    async ({ stage, user }) => {
      const applied = (await getEventSource(pipeline.ctx.db, key))?.eventsApplied ?? 0;
      const event = pipeline.fake.control.makeAdmin(user);
      const outcome = await runner.killAt(
        stage,
        async () => {
          await post(event);
          return until(
            () => findActiveExecution(pipeline.ctx.db, key, "event"),
            60,
            "the event step's execution",
          );
        },
        undefined,
        leftByKill[stage],
      );
      const { executionId } = outcome;
      expect(outcome.violations, KillRunner.recentWarnings()).toEqual([]);
      expect(outcome).toMatchObject({ status: "succeeded", attempts: 2 });
      expect(outcome.warnings).toContain("WORKER_LOST");
      // The attempt that took over stepped the results too: no whole analysis for a lost worker.
      expect(outcome.warnings).not.toContain("event-whole-analysis");
      expect(outcome.warnings).not.toContain("event-full-collection");
      expect(outcome.recoverySeconds).toBeLessThan(END_WITHIN_SECONDS);
      recoveries[stage] = outcome.recoverySeconds;

      // One results version, stepped from the newest before it, whole.
      const results = await resultsOf(executionId);
      expect(results).toMatchObject([{ previous: newest, stepped: true, compared: true }]);
      newest = executionId;
      const changes = await adminGained(user);
      expect(changes).toEqual([{ executionId, changeId: expect.any(String) }]);
      expect(await listAppliedEventIds(pipeline.ctx.db, executionId)).toEqual([
        event.detail.eventID,
      ]);
      expect((await getEventSource(pipeline.ctx.db, key))?.eventsApplied).toBe(applied + 1);

      // One delivery record for the destination and the change, and one alert reaching it.
      const changeId = changes[0]?.changeId as string;
      const records = [
        ...(await pipeline.ctx.db.execute(
          rawQuery(
            `select d.alert_id as "alertId", d.status from alert_changes c
           join alert_deliveries d on d.alert_id = c.alert_id
           where c.destination_id = $1 and c.change_id = $2`,
            [destinationId, changeId],
          ),
        )),
      ] as { alertId: string; status: string }[];
      expect(records).toHaveLength(1);
      const reached = await until(
        () => {
          const found = receiver.received.filter((r) => r.body.includes(changeId));
          return found.length > 0 && found;
        },
        60,
        "the alert reaches the receiver",
      );
      expect(new Set(reached.map((r) => r.headers["sightline-alert-id"]))).toEqual(
        new Set([records[0]?.alertId]),
      );
    },
    240_000,
  );
});
