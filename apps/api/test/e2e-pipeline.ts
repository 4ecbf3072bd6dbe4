import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeAccountModel, smallAccount, startFakeAws } from "@sightline/aws-fake";
import { DeliveryVerification, ExecutionRecord } from "@sightline/domain";
import { startWorker, type WorkerSettings } from "@sightline/services";
import { afterAll, expect } from "vitest";
import { createHarness } from "./harness.ts";

/**
 * The service as a partner uses it, with `SIGHTLINE_ROLE=all`: the API and a worker in one
 * process, the worker taking jobs from a queue of the calling file's own and talking to the
 * fake AWS serving the small account.
 */
/** `model`: the account the fake serves; a test that changes it between analyses passes a copy. */
export async function startE2e(model: FakeAccountModel = smallAccount.model) {
  const h = await createHarness({
    queueSchema: `pgboss_e2e_${randomBytes(4).toString("hex")}`,
    maintenance: true,
  });
  const fake = await startFakeAws(model);
  const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-e2e-"));
  const settings: WorkerSettings = {
    analysis: {
      inboxDir: path.join(dataDir, "inbox"),
      workDir: path.join(dataDir, "work"),
      formats: ["csv", "jsonl"],
      awsClientOptions: { ...fake.clientOptions, maxAttempts: 2 },
      serviceCredentials: fake.serviceCredentials,
      collection: { credentialReportPollMs: 5 },
    },
    queue: { retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 60 },
    concurrency: 1,
    dailyCron: "0 7 * * *",
    dailyWindowMinutes: 0,
    snapshotRetentionDays: 30,
    pollingIntervalSeconds: 0.5,
  };
  await startWorker(h.deps.services, settings);
  afterAll(async () => {
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const accountId = smallAccount.ACCOUNT_ID;

  /**
   * A partner (its own external ID, which the fake's auditor role trusts), a customer with both
   * feature flags, and its account; with a bucket, delivered to it.
   */
  async function configure(inbox: { bucketName: string; expectedBucketOwner?: string } | false) {
    const partner = await h.newPartner({ configure: false });
    const body = {
      partnerId: partner.partnerId,
      ...(inbox
        ? {
            awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
            deliveryDestinations: { DeliverToS3: inbox },
          }
        : {}),
    };
    const put = await h.call("PUT", `/partner/${partner.partnerId}`, { key: partner.key, body });
    expect(put.status).toBe(200);
    const tenant = `tenant-${randomBytes(4).toString("hex")}`;
    const customer = await h.call("PUT", `/partner/${partner.partnerId}/customer/${tenant}`, {
      key: partner.key,
      body: {
        partnerId: partner.partnerId,
        partnerCustomerId: tenant,
        subscriptionPlanName: "Team",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
        featureFlags: { latestReportEnabled: true, hiveEnabled: true },
      },
    });
    const externalId = `ext-${partner.partnerId}`;
    fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
    const base = `/partner/${partner.partnerId}/customer/${tenant}/account/${accountId}`;
    const account = await h.call("PUT", base, {
      key: partner.key,
      body: {
        partnerId: partner.partnerId,
        partnerCustomerId: tenant,
        accountId,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
      },
    });
    expect(account.status).toBe(200);
    return { ...partner, tenant, base, customerId: customer.json.customerId as string };
  }

  /** What a partner does to prove its bucket: ask for the token, put it where it is told. */
  async function prove(partner: { partnerId: string; key: string }) {
    const asked = await h.call("GET", `/partner/${partner.partnerId}/delivery-verification`, {
      key: partner.key,
    });
    expect(asked.status).toBe(200);
    const verification = DeliveryVerification.parse(asked.json);
    fake.putObjectAsOwner(verification.bucketName, verification.key, `${verification.token}\n`);
    return verification;
  }

  async function triggerAndWait(p: Awaited<ReturnType<typeof configure>>) {
    const trigger = await h.call("POST", `${p.base}/analysis`, {
      key: p.key,
      body: { partnerId: p.partnerId, partnerCustomerId: p.tenant, accountId },
    });
    expect(trigger.status).toBe(202);
    const executionId = trigger.json.executionId as string;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const read = await h.call("GET", `/executions/${executionId}`, { key: p.key });
      const execution = ExecutionRecord.parse(read.json);
      if (execution.status === "succeeded" || execution.status === "failed") return execution;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`execution ${executionId} did not end within 60 s`);
  }

  return { h, fake, settings, accountId, configure, prove, triggerAndWait };
}
