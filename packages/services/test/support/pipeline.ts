import { randomBytes, randomInt } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type FakeAccountModel,
  type FakeAws,
  smallAccount,
  startFakeAws,
} from "@sightline/aws-fake";
import { type FakeAzure, smallTenant, startFakeAzure } from "@sightline/azure-fake";
import {
  createDb,
  getExecution,
  setOemGrant,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import type { FeatureFlags } from "@sightline/domain";
import { type Logger, silentLogger } from "@sightline/logging";
import { inject } from "vitest";
import type { AlertSettings } from "../../src/alerts/alert-settings.ts";
import type { ServiceContext } from "../../src/context.ts";
import { localMasterKey } from "../../src/credentials/master-key.ts";
import { getDeliveryVerification } from "../../src/delivery/delivery-verification.ts";
import type { QueueSettings } from "../../src/queue/analysis-queue.ts";
import { DEFAULT_LEASE_SETTINGS } from "../../src/queue/lease-keeper.ts";
import { startJobQueue } from "../../src/runtime/start-job-queue.ts";
import { DEFAULT_EVENT_SETTINGS, type EventSettings } from "../../src/worker/event-job.ts";
import { startWorker, type WorkerSettings } from "../../src/worker/start-worker.ts";

export interface Pipeline {
  ctx: ServiceContext;
  databaseUrl: string;
  /** The pg-boss schema of this pipeline's queue. */
  schema: string;
  fake: FakeAws;
  /** The fake Azure (Entra ID, ARM, Graph) serving the small tenant, when asked for. */
  azure: FakeAzure | undefined;
  settings: WorkerSettings;
  dataDir: string;
  /**
   * A configured partner, customer and monitored account of the fake's account, with an
   * external ID of its own that the fake's auditor role trusts. Its S3 inbox is proven
   * unless `proven: false`.
   */
  partner(options?: {
    featureFlags?: FeatureFlags;
    externalId?: string;
    proven?: boolean;
  }): Promise<{
    partnerId: string;
    partnerCustomerId: string;
    customerId: string;
  }>;
  /**
   * A partner (folder inbox: no DeliverToS3) whose customer monitors the fake Azure's
   * subscription with Sightline's application (`config`), or with `cvs` (granted by the operator).
   */
  azurePartner(options?: {
    featureFlags?: FeatureFlags;
    auditorAuthMethod?: "config" | "cvs";
  }): Promise<{
    partnerId: string;
    partnerCustomerId: string;
    customerId: string;
  }>;
  /** The execution once it has ended (or the test times out). */
  finished(executionId: string): Promise<NonNullable<Awaited<ReturnType<typeof getExecution>>>>;
  close(): Promise<void>;
}

/**
 * The fake AWS, a queue of its own (a pg-boss schema per test file, so files running side by
 * side never take each other's jobs), and — unless `worker: false` — a worker on it.
 */
export async function startPipeline(
  options: {
    model?: FakeAccountModel;
    worker?: boolean;
    queue?: Partial<QueueSettings>;
    credentialReportPollMs?: number;
    /** A database of its own, for tests that act on every account (the daily run). */
    databaseUrl?: string;
    /** Also start the fake Azure and configure Sightline's Azure application for it. */
    azure?: boolean;
    /** The credential vending service of `cvs` accounts. */
    credentialVending?: { url: string; token: string };
    /** Where alerts may go (webhook hosts, a mail relay, Security Hub's endpoints). */
    alerts?: AlertSettings;
    /** The event lane's settings (default: quick, for tests). */
    events?: Partial<EventSettings>;
    /** Workers also consume a central event queue (SQS) of the fake's, named this. */
    eventQueue?: string;
    /** The services' logger (default: silent). */
    logger?: Logger;
  } = {},
): Promise<Pipeline> {
  const databaseUrl = options.databaseUrl ?? inject("databaseUrl");
  const fake = await startFakeAws(options.model ?? smallAccount.model);
  const azure = options.azure
    ? await startFakeAzure(smallTenant.smallTenantModel(), { pageSize: 2 })
    : undefined;
  const database = createDb(databaseUrl, { maxConnections: 4 });
  const schema = `pgboss_${randomBytes(4).toString("hex")}`;
  // A short lease: a killed worker's job comes back within seconds.
  const queue: QueueSettings = {
    retryLimit: 2,
    retryDelaySeconds: 1,
    expireInSeconds: 60,
    lease: { ...DEFAULT_LEASE_SETTINGS, renewSeconds: 0.5, lostAfterSeconds: 4 },
    ...options.queue,
  };
  const boss = await startJobQueue({
    databaseUrl,
    logger: silentLogger,
    queue,
    maintenance: true,
    maintenanceIntervalSeconds: 1,
    maxConnections: 3,
    schema,
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-pipeline-"));
  const ctx: ServiceContext = {
    db: database.db,
    databaseUrl,
    boss,
    masterKey: localMasterKey(randomBytes(32)),
    logger: options.logger ?? silentLogger,
    now: () => new Date(),
    alerts: {
      retry: { limit: 2, delaySeconds: 1 },
      aws: {
        serviceCredentials: fake.serviceCredentials,
        clientOptions: { ...fake.clientOptions, maxAttempts: 1 },
      },
      ...options.alerts,
    },
  };
  const settings: WorkerSettings = {
    analysis: {
      inboxDir: path.join(dataDir, "inbox"),
      workDir: path.join(dataDir, "work"),
      formats: ["csv", "jsonl"],
      awsClientOptions: { ...fake.clientOptions, maxAttempts: 3 },
      serviceCredentials: fake.serviceCredentials,
      collection: { credentialReportPollMs: options.credentialReportPollMs ?? 5 },
      ...(options.credentialVending ? { credentialVending: options.credentialVending } : {}),
      ...(azure
        ? {
            azure: {
              appSecret: { kind: "secret", clientSecret: smallTenant.CLIENT_SECRET },
              clientId: smallTenant.CLIENT_ID,
              endpoints: azure.endpoints,
              http: {
                trustedCertificates: azure.certificate,
                retryDelayMs: 50,
                maxRetryDelayMs: 500,
              },
            },
          }
        : {}),
    },
    queue,
    concurrency: 1,
    dailyCron: "0 7 * * *",
    dailyWindowMinutes: 0,
    snapshotRetentionDays: 30,
    pollingIntervalSeconds: 0.5,
    events: {
      ...DEFAULT_EVENT_SETTINGS,
      quietSeconds: 0.5,
      maxWaitSeconds: 5,
      fullAnalysisPollSeconds: 1,
      ...options.events,
    },
    ...(options.eventQueue ? { eventQueueUrl: fake.createQueue(options.eventQueue) } : {}),
  };
  if (options.worker !== false) await startWorker(ctx, settings);
  else
    await import("../../src/queue/analysis-queue.ts").then((q) =>
      q.createQueues(boss, settings.queue),
    );

  /** A new partner (with `partnerFields`) and one customer of it, delivered to the partner. */
  const partnerCustomer = async (
    partnerFields: Omit<Parameters<typeof upsertPartner>[1], "partnerId">,
    featureFlags: Parameters<typeof upsertPartnerCustomer>[1]["featureFlags"],
  ) => {
    const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
    const partnerCustomerId = `tenant-${randomInt(1e9)}`;
    await upsertPartner(ctx.db, { partnerId, ...partnerFields });
    const ref = await upsertPartnerCustomer(ctx.db, {
      partnerId,
      partnerCustomerId,
      subscriptionPlanName: "Enterprise",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      ...(featureFlags ? { featureFlags } : {}),
    });
    if (!ref) throw new Error("partner customer not stored");
    return { partnerId, partnerCustomerId, ref };
  };

  return {
    ctx,
    databaseUrl,
    schema,
    fake,
    azure,
    settings,
    dataDir,
    async azurePartner(partnerOptions = {}) {
      const { partnerId, partnerCustomerId, ref } = await partnerCustomer(
        {},
        partnerOptions.featureFlags,
      );
      if (partnerOptions.auditorAuthMethod === "cvs") await setOemGrant(ctx.db, partnerId, true);
      await upsertMonitoredAccount(ctx.db, {
        partnerId,
        partnerCustomerId,
        accountId: smallTenant.SUBSCRIPTION_ID,
        provider: "azure",
        ...(partnerOptions.auditorAuthMethod === "cvs"
          ? { auditorAuthMethod: "cvs" as const }
          : {
              auditorAuthMethod: "config" as const,
              auditorAuthConfig: {
                tenantId: smallTenant.TENANT_ID,
                clientId: smallTenant.CLIENT_ID,
              },
            }),
      });
      return { partnerId, partnerCustomerId, customerId: ref.customerId };
    },
    async partner(partnerOptions = {}) {
      const { partnerId, partnerCustomerId, ref } = await partnerCustomer(
        {
          awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
          deliveryDestinations: { DeliverToS3: { bucketName: smallAccount.INBOX_BUCKET } },
        },
        partnerOptions.featureFlags,
      );
      const externalId = partnerOptions.externalId ?? `ext-${partnerId}`;
      if (!partnerOptions.externalId)
        fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
      const stored = await upsertMonitoredAccount(ctx.db, {
        partnerId,
        partnerCustomerId,
        accountId: smallAccount.ACCOUNT_ID,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
      });
      if (stored.kind !== "stored") throw new Error(`monitored account not stored: ${stored.kind}`);
      if (partnerOptions.proven !== false) {
        const verification = await getDeliveryVerification(ctx.db, { kind: "partner", partnerId });
        fake.putObjectAsOwner(verification.bucketName, verification.key, verification.token);
      }
      return { partnerId, partnerCustomerId, customerId: ref.customerId };
    },
    async finished(executionId) {
      for (;;) {
        // A fault test may have cut this pool's connection: the next poll asks again.
        const row = await getExecution(ctx.db, executionId).catch(() => undefined);
        if (row && (row.status === "succeeded" || row.status === "failed")) return row;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      await boss.stop({ graceful: false, wait: true });
      await database.close();
      await fake.close();
      await azure?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
