import { randomBytes, randomInt } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FakeAws, StoreBodies } from "@sightline/aws-fake";
import {
  createDb,
  getExecution,
  issueDeliveryVerification,
  markDeliveryProven,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { silentLogger } from "@sightline/logging";
import type { ReportFormat } from "@sightline/reports";
import { DEFAULT_REPORT_FORMATS } from "../src/analysis/analysis-settings.ts";
import type { ServiceContext } from "../src/context.ts";
import { localMasterKey } from "../src/credentials/master-key.ts";
import { DEFAULT_QUEUE_SETTINGS } from "../src/queue/analysis-queue.ts";
import { startJobQueue } from "../src/runtime/start-job-queue.ts";
import type { AccountOwner } from "../src/triggers/trigger-analysis.ts";
import type { WorkerSettings } from "../src/worker/start-worker.ts";
import {
  ACCOUNT_ID,
  AUDITOR_ROLE_ARN,
  EXTERNAL_ID,
  INBOX_BUCKET,
  INBOX_KEY_ARN,
} from "./synthetic-model.ts";
import type { WorkerProcessOptions } from "./worker-child.ts";

export type Execution = NonNullable<Awaited<ReturnType<typeof getExecution>>>;

/** The fake keeps manifests whole, so the bench can check them; of reports, size and SHA-256. */
export const MANIFESTS_ONLY: StoreBodies = ({ key }) => /\/manifest\.[^/]+\.json$/.test(key);

export interface BenchEnvironment {
  readonly databaseUrl: string;
  /** The pg-boss schema of this run. */
  readonly schema: string;
  /** The API's side: triggers enqueue here (no maintenance, no worker). */
  readonly ctx: ServiceContext;
  /** How worker processes are started (a heap limit to try). */
  readonly workerProcess: WorkerProcessOptions;
  /** The report formats of the workers (the production default unless the bench names others). */
  readonly formats: readonly ReportFormat[];
  /** A worker's settings: production defaults, AWS calls to the fake; `workbook`: k9's xlsx too. */
  workerSettings(fake: FakeAws, options?: { workbook?: boolean }): WorkerSettings;
  /** A new partner customer monitoring the synthetic account, delivering to the partner's inbox. */
  addCustomer(partnerId: string): Promise<AccountOwner & { kind: "partner" }>;
  addPartner(): Promise<string>;
  /** Each execution once it has ended. */
  finished(executionIds: readonly string[]): Promise<Execution[]>;
  close(): Promise<void>;
}

/** A database and a pg-boss schema of the run's own, and scratch space for the workers. */
export async function openBenchEnvironment(
  workerProcess: WorkerProcessOptions = {},
  formats: readonly ReportFormat[] = DEFAULT_REPORT_FORMATS,
): Promise<BenchEnvironment> {
  const database = await createTestDatabase(process.env.DATABASE_URL);
  const databaseUrl = database.url;
  const schema = `pgboss_bench_${randomBytes(4).toString("hex")}`;
  const db = createDb(databaseUrl, { maxConnections: 4 });
  const boss = await startJobQueue({
    databaseUrl,
    logger: silentLogger,
    queue: DEFAULT_QUEUE_SETTINGS,
    maintenance: false,
    maxConnections: 2,
    schema,
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-bench-"));
  const ctx: ServiceContext = {
    db: db.db,
    boss,
    masterKey: localMasterKey(randomBytes(32)),
    logger: silentLogger,
    now: () => new Date(),
  };
  let customers = 0;
  let sharedPartnerId: string | undefined;
  return {
    databaseUrl,
    schema,
    ctx,
    workerProcess,
    formats,
    workerSettings: (fake, options = {}) => ({
      analysis: {
        inboxDir: path.join(dataDir, "inbox"),
        workDir: path.join(dataDir, "work"),
        formats,
        ...(options.workbook ? { workbook: true } : {}),
        awsClientOptions: fake.clientOptions,
        serviceCredentials: fake.serviceCredentials,
      },
      queue: DEFAULT_QUEUE_SETTINGS,
      concurrency: 1,
      dailyCron: "0 7 * * *",
      dailyWindowMinutes: 240,
      snapshotRetentionDays: 30,
      pollingIntervalSeconds: 1,
    }),
    // One partner for every case: the synthetic account's role trusts one external ID, and no
    // two tenants may configure the same role and external ID.
    async addPartner() {
      if (sharedPartnerId) return sharedPartnerId;
      const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
      sharedPartnerId = partnerId;
      await upsertPartner(ctx.db, {
        partnerId,
        awsEncryptionKeyId: INBOX_KEY_ARN,
        deliveryDestinations: { DeliverToS3: { bucketName: INBOX_BUCKET } },
      });
      // The partner proved its inbox once, long before: the bench times analyses, not the proof.
      const destination = { ownerId: partnerId, bucketName: INBOX_BUCKET };
      await issueDeliveryVerification(ctx.db, destination, "bench-token");
      await markDeliveryProven(ctx.db, destination, "bench-token");
      return partnerId;
    },
    async addCustomer(partnerId) {
      const partnerCustomerId = `bench-${++customers}`;
      const ref = await upsertPartnerCustomer(ctx.db, {
        partnerId,
        partnerCustomerId,
        subscriptionPlanName: "Enterprise",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
        featureFlags: { latestReportEnabled: true, hiveEnabled: true },
      });
      if (!ref) throw new Error(`partner customer ${partnerCustomerId} not stored`);
      const monitored = await upsertMonitoredAccount(ctx.db, {
        partnerId,
        partnerCustomerId,
        accountId: ACCOUNT_ID,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: { roleArn: AUDITOR_ROLE_ARN, externalId: EXTERNAL_ID },
      });
      if (monitored.kind !== "stored") throw new Error(`account not stored: ${monitored.kind}`);
      return { kind: "partner", partnerId, partnerCustomerId };
    },
    async finished(executionIds) {
      const done = new Map<string, Execution>();
      while (done.size < executionIds.length) {
        for (const id of executionIds) {
          if (done.has(id)) continue;
          const row = await getExecution(ctx.db, id);
          if (row && (row.status === "succeeded" || row.status === "failed")) done.set(id, row);
        }
        if (done.size < executionIds.length) await new Promise((r) => setTimeout(r, 50));
      }
      return executionIds.map((id) => done.get(id) as Execution);
    },
    async close() {
      await boss.stop({ graceful: false, wait: true });
      await db.close();
      await database.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
