/**
 * kill -9 of worker processes for the soak bench: at each stage, again and again, on a short
 * lease; and the figure, a worker killed while delivering under the default lease.
 */
import { randomBytes } from "node:crypto";
import { smallAccount } from "@sightline/aws-fake";
import { getExecution, rawQuery } from "@sightline/db";
import { AlertDestinationsBody, type ExecutionStage } from "@sightline/domain";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { localMasterKey } from "../src/credentials/master-key.ts";
import { DEFAULT_LEASE_SETTINGS, type LeaseSettings } from "../src/queue/lease-keeper.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startHoldingReceiver, until } from "../test/support/fault-holds.ts";
import { type KillOutcome, KillRunner } from "../test/support/kill-runner.ts";
import { type Pipeline, startPipeline } from "../test/support/pipeline.ts";
import type { FaultRun, Scenario } from "./fault-scenarios.ts";

const bucket = smallAccount.INBOX_BUCKET;

/** A pipeline whose jobs only worker processes take, with a webhook destination, under `lease`. */
async function killSetup(databaseUrl: string, lease: LeaseSettings, endWithinSeconds: number) {
  const receiver = await startHoldingReceiver();
  const masterKey = randomBytes(32);
  const alerts = receiver.alertSettings(60_000);
  const pipeline = await startPipeline({
    databaseUrl,
    worker: false,
    alerts,
    queue: { expireInSeconds: 600, lease },
  });
  const partner = await pipeline.partner({
    featureFlags: { latestReportEnabled: true, hiveEnabled: true },
  });
  const { destinations } = await putAlertDestinations(
    { ...pipeline.ctx, masterKey: localMasterKey(masterKey) },
    { kind: "partner", partnerId: partner.partnerId },
    AlertDestinationsBody.parse({
      destinations: [{ name: "security team", kind: "webhook", url: receiver.url }],
    }),
  );
  const runner = await KillRunner.start({
    db: pipeline.ctx.db,
    databaseUrl,
    fake: pipeline.fake,
    bucket,
    workDir: pipeline.settings.analysis.workDir,
    receiver,
    destinationId: destinations[0]?.destinationId as string,
    endWithinSeconds,
    workers: {
      databaseUrl: pipeline.databaseUrl,
      schema: pipeline.schema,
      settings: { ...pipeline.settings, pollingIntervalSeconds: 0.5 },
      alerts,
      masterKeyHex: masterKey.toString("hex"),
    },
  });
  const trigger = async () =>
    (
      await triggerAnalysis(pipeline.ctx, {
        owner: { kind: "partner", ...partner },
        accountId: smallAccount.ACCOUNT_ID,
        kind: "ondemand",
      })
    ).executionId;
  let admins = 0;
  /** A new administrator in the account: the next analysis has a change to alert. */
  const newAdmin = () => {
    const name = `soak-admin-${++admins}`;
    pipeline.fake.control.create("user", name);
    pipeline.fake.control.makeAdmin(name);
  };
  return {
    pipeline,
    runner,
    receiver,
    trigger,
    newAdmin,
    async close() {
      await runner.close();
      await pipeline.close();
      await receiver.close();
    },
  };
}

const asRun = (outcome: KillOutcome): FaultRun => ({
  recoverySeconds: outcome.recoverySeconds,
  violations: outcome.violations,
  outcomes: [outcome.status === "failed" ? `failed` : String(outcome.status)],
});

/** kill -9 at each stage (and while sending an alert), on a short lease (lost after 2 s). */
export async function killScenarios(databaseUrl: string) {
  const lease = { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.5, lostAfterSeconds: 2 };
  const setup = await killSetup(databaseUrl, lease, 120);
  const stages: ExecutionStage[] = ["collecting", "analysing", "writing", "storing", "delivering"];
  let sending: Promise<FaultRun> | undefined;
  const scenarios: Scenario[] = [
    ...stages.map((stage) => ({
      name: `kill -9 while ${stage}`,
      from: "the kill",
      run: async () => asRun(await setup.runner.killAt(stage, setup.trigger)),
    })),
    {
      name: "kill -9 while enqueuing alerts",
      from: "the kill",
      async run() {
        setup.newAdmin();
        setup.receiver.hold(true);
        const enqueued = await setup.runner.killAt("alerting", setup.trigger);
        // The next scenario kills the worker sending this analysis's alert.
        sending = setup.runner.killWhileSending(enqueued.executionId).then((sent) => ({
          ...asRun(sent),
          violations: [
            ...sent.violations,
            ...(new Set(sent.alertIds).size > 1 ? ["3: the alert was sent under two IDs"] : []),
          ],
        }));
        sending.catch(() => {});
        return asRun(enqueued);
      },
    },
    {
      name: "kill -9 while sending an alert",
      from: "the kill",
      run: async () => {
        if (!sending) throw new Error("an alert is sent after the enqueue scenario");
        return sending;
      },
    },
  ];
  return { scenarios, close: setup.close };
}

export interface DoneWhen {
  recoverySeconds: number;
  status: string | undefined;
  attempts: number | undefined;
  /** Dated manifests of the killed analysis's stamp, and its alerts (per destination). */
  manifests: number;
  alerts: number;
  receivedIds: string[];
  violations: string[];
}

/**
 * The figure: the default lease (renewed every 5 s, lost after 20 s) and pg-boss's
 * expiry at 600 s; a worker killed while delivering an analysis that has a change to alert.
 */
export async function doneWhen(databaseUrl: string): Promise<DoneWhen> {
  const setup = await killSetup(databaseUrl, DEFAULT_LEASE_SETTINGS, 300);
  try {
    await setup.pipeline.finished(await setup.trigger()); // the baseline
    setup.newAdmin();
    const outcome = await setup.runner.killAt("delivering", setup.trigger);
    const execution = await getExecution(setup.pipeline.ctx.db, outcome.executionId);
    const stamp = /manifest\.(\d{4}-\d\d-\d\d-\d{4})\.json$/.exec(
      execution?.reportKeys.find((k) => /manifest\.\d{4}/.test(k)) ?? "",
    )?.[1];
    const manifests = [...setup.pipeline.fake.objects.keys()].filter(
      (key) => stamp && key.endsWith(`/manifest.${stamp}.json`),
    ).length;
    const alerts = await countAlerts(setup.pipeline, outcome.executionId);
    await until(() => setup.receiver.received.length > 0, 120, "the alert received");
    return {
      recoverySeconds: outcome.recoverySeconds,
      status: outcome.status,
      attempts: outcome.attempts,
      manifests,
      alerts,
      receivedIds: setup.receiver.received.map((r) => String(r.headers["sightline-alert-id"])),
      violations: outcome.violations,
    };
  } finally {
    await setup.close();
  }
}

async function countAlerts(pipeline: Pipeline, executionId: string): Promise<number> {
  const [row] = await pipeline.ctx.db.execute(
    rawQuery("select count(*)::int as n from alert_deliveries where execution_id = $1", [
      executionId,
    ]),
  );
  return Number(row?.n);
}
