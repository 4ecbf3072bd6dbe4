/**
 * The faults the soak bench runs again and again in the bench process's own worker: the cloud
 * failing, the disk, the database's connections cut, Postgres restarted. Each run triggers an
 * analysis, injects its fault, and answers what the invariants say once the fault has cleared.
 * The suite's tests assert the same faults once each (`test/faults-*.int.test.ts`).
 */
import { createWriteStream, rmSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { smallAccount } from "@sightline/aws-fake";
import { createDb, rawQuery, runMigrations, startEmbeddedPostgres } from "@sightline/db";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { disk, folderPartner } from "../test/support/fault-disk.ts";
import { until } from "../test/support/fault-holds.ts";
import { checkInvariants, type InboxView } from "../test/support/invariants.ts";
import { type Pipeline, startPipeline } from "../test/support/pipeline.ts";

/** One run of a fault: its executions' outcome and what broke. */
export interface FaultRun {
  /** Seconds from the fault (injected, or Postgres back) to the last execution's end. */
  recoverySeconds: number;
  violations: string[];
  /** `succeeded`, or `failed CODE`, per execution. */
  outcomes: string[];
}

export interface Scenario {
  name: string;
  /** What the recovery time is measured from. */
  from: string;
  run(): Promise<FaultRun>;
}

const bucket = smallAccount.INBOX_BUCKET;

async function retried<T>(read: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await read();
    } catch (error) {
      if (tries >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * tries));
    }
  }
}

async function outcome(
  pipeline: Pipeline,
  executionIds: string[],
  inbox: InboxView,
  since: number,
): Promise<FaultRun> {
  const report = await checkInvariants({
    db: pipeline.ctx.db,
    executionIds,
    inbox,
    workDir: pipeline.settings.analysis.workDir,
    endWithinSeconds: 120,
  });
  // The fault may have cut this process's own connections too: a failed read is asked again.
  const ended = await retried(() => Promise.all(executionIds.map((id) => pipeline.finished(id))));
  const last = Math.max(...ended.map((e) => e.finishedAt?.getTime() ?? Date.now()));
  return {
    recoverySeconds: (last - since) / 1000,
    violations: report.violations,
    outcomes: ended.map((e) => (e.status === "failed" ? `failed ${e.failureCode}` : e.status)),
  };
}

async function trigger(
  pipeline: Pipeline,
  partner: { partnerId: string; partnerCustomerId: string },
) {
  const started = await triggerAnalysis(pipeline.ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
  });
  return started.executionId;
}

/** The scenarios on a pipeline with a worker of its own (the bench's database, its own queue). */
export async function inProcessScenarios(databaseUrl: string) {
  const pipeline = await startPipeline({ databaseUrl });
  const { fake, settings } = pipeline;
  settings.analysis.awsClientOptions = {
    ...settings.analysis.awsClientOptions,
    requestTimeoutMs: 5000,
  };
  const partner = await pipeline.partner({
    featureFlags: { latestReportEnabled: true, hiveEnabled: true },
  });
  const folder = await folderPartner(pipeline);
  const s3: InboxView = { kind: "s3", fake, bucket };
  const inWorkDir = (file: string) => file.startsWith(settings.analysis.workDir);

  /** One analysis under `inject`'s fault; the fault is cleared once it has ended. */
  const analyse = async (inject: () => void, inbox: InboxView = s3, owner = partner) => {
    const since = Date.now();
    inject();
    try {
      return await outcome(pipeline, [await trigger(pipeline, owner)], inbox, since);
    } finally {
      fake.clearFaults();
      settings.analysis.files = undefined;
    }
  };
  const midDelivery = (change: () => void, restore: () => void) => async () => {
    fake.inject({
      operation: "PutObject",
      resource: bucket,
      kind: "delay",
      delayMs: 1000,
      after: 3,
    });
    const delayed = () => fake.calls.some((c) => c.operation === "PutObject" && c.status === 0);
    const changed = until(delayed, 120, "a delivery under way").then(change);
    try {
      return await analyse(() => {});
    } finally {
      await changed.catch(() => {});
      restore();
    }
  };
  /** The disk full once, at the first write `where` says. */
  const fullOnce = (where: (file: string) => boolean) => () => {
    let full = true;
    settings.analysis.files = disk((file) => {
      if (!where(file) || !full) return false;
      full = false;
      return true;
    });
  };
  const keyArn = smallAccount.INBOX_KEY_ARN;
  const scenarios: Scenario[] = [
    ...(
      [
        ["sts", "AssumeRole", "server-error", 4],
        ["iam", "GetAccountAuthorizationDetails", "server-error", 4],
        ["kms", "ListKeys", "throttle", 6],
        ["s3", "PutObject", "server-error", 4],
      ] as const
    ).map(([service, operation, kind, times]) => ({
      name: `${service} ${operation} ${kind} ×${times}`,
      from: "the fault",
      run: () => analyse(() => fake.inject({ service, operation, kind, times })),
    })),
    {
      name: "S3 write stalled (timed out, sent again)",
      from: "the fault",
      run: () =>
        analyse(() =>
          fake.inject({
            operation: "PutObject",
            resource: bucket,
            kind: "delay",
            delayMs: 60_000,
            times: 1,
          }),
        ),
    },
    {
      name: "bucket policy turned to deny mid-delivery",
      from: "the trigger",
      run: midDelivery(
        () =>
          fake.control.setBucketPolicy(bucket, {
            Version: "2012-10-17",
            Statement: [
              {
                Effect: "Deny",
                Principal: { AWS: fake.serviceArn },
                Action: "s3:PutObject",
                Resource: `arn:aws:s3:::${bucket}/*`,
              },
            ],
          }),
        () => fake.control.setBucketPolicy(bucket, undefined),
      ),
    },
    {
      name: "KMS key disabled mid-delivery",
      from: "the trigger",
      run: midDelivery(
        () => fake.control.changeKeyState(keyArn, "us-east-1", "DisableKey"),
        () => fake.control.changeKeyState(keyArn, "us-east-1", "EnableKey"),
      ),
    },
    {
      name: "disk full writing the reports (once)",
      from: "the fault",
      run: () => analyse(fullOnce(inWorkDir)),
    },
    {
      name: "work directory removed under the analysis",
      from: "the fault",
      run: () =>
        analyse(() => {
          let removed = false;
          settings.analysis.files = {
            ...disk(() => false),
            createWriteStream: (file, options) => {
              if (!removed) {
                removed = true;
                rmSync(settings.analysis.workDir, { recursive: true, force: true });
              }
              return createWriteStream(file, options);
            },
          };
        }),
    },
    {
      name: "local inbox full mid-delivery (once)",
      from: "the fault",
      run: () =>
        analyse(
          fullOnce((file) => !inWorkDir(file) && file.includes("/manifest.")),
          { kind: "folder", dir: settings.analysis.inboxDir },
          folder,
        ),
    },
  ];
  return { scenarios, close: () => pipeline.close() };
}

/** Every connection of the database but the caller's cut every half second, for 3 s. */
export async function terminateScenario(databaseUrl: string) {
  const pipeline = await startPipeline({ databaseUrl });
  const admin = createDb(databaseUrl, { maxConnections: 1 });
  const partners = await Promise.all([1, 2, 3].map(() => pipeline.partner()));
  const scenario: Scenario = {
    name: "connections terminated under load (3 analyses)",
    from: "the last cut",
    async run() {
      const ids = [];
      for (const partner of partners) ids.push(await trigger(pipeline, partner));
      const end = Date.now() + 3000;
      while (Date.now() < end) {
        await admin.db.execute(
          rawQuery(
            `select count(pg_terminate_backend(pid)) from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid()`,
            [],
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return outcome(pipeline, ids, { kind: "s3", fake: pipeline.fake, bucket }, Date.now());
    },
  };
  return {
    scenario,
    async close() {
      await pipeline.close();
      await admin.close();
    },
  };
}

/** How long the restarted Postgres stays down: longer than the lease (4 s). */
const OUTAGE_MS = 6000;

/** A private Postgres stopped mid-delivery for 6 s and started again. */
export async function restartScenario() {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-soak-pg-"));
  await chmod(dir, 0o755); // as root, Postgres runs as the postgres user
  const dataDir = path.join(dir, "postgres");
  let server = await startEmbeddedPostgres({ dataDir });
  await runMigrations(server.url);
  const pipeline = await startPipeline({ databaseUrl: server.url });
  const partners = await Promise.all([1, 2].map(() => pipeline.partner()));
  const scenario: Scenario = {
    name: "Postgres restarted mid-delivery (down 6 s)",
    from: "Postgres back",
    async run() {
      pipeline.fake.inject({
        operation: "PutObject",
        resource: bucket,
        kind: "delay",
        delayMs: 2000,
        after: 3,
        times: 1,
      });
      const ids = [];
      for (const partner of partners) ids.push(await trigger(pipeline, partner));
      await until(
        () => pipeline.fake.calls.some((c) => c.operation === "PutObject" && c.status === 0),
        120,
        "a delivery under way",
      );
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      server = await startEmbeddedPostgres({ dataDir, port: server.port });
      return outcome(pipeline, ids, { kind: "s3", fake: pipeline.fake, bucket }, Date.now());
    },
  };
  return {
    scenario,
    async close() {
      await pipeline.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
