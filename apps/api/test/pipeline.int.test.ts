import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeAssumableRole, smallAccount, startFakeAws } from "@sightline/aws/testing";
import { ExecutionRecord } from "@sightline/domain";
import { startWorker, type WorkerSettings } from "@sightline/services";
import { afterAll, describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

/**
 * The service as a partner uses it, with `SIGHTLINE_ROLE=all`: the API and a worker in one
 * process, the worker taking jobs from a queue of this file's own and talking to the fake AWS.
 */
const h = await createHarness({
  queueSchema: `pgboss_e2e_${randomBytes(4).toString("hex")}`,
  maintenance: true,
});
// Each partner's external ID of its own (no tenant may reuse another's), learnt as it is made.
const assumableRoles: FakeAssumableRole[] = [];
const fake = await startFakeAws({ ...smallAccount.model, assumableRoles });
const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-e2e-"));
const settings: WorkerSettings = {
  analysis: {
    inboxDir: path.join(dataDir, "inbox"),
    workDir: path.join(dataDir, "work"),
    formats: ["csv", "jsonl"],
    awsClientOptions: fake.clientOptions,
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

/** A partner with (or without) an S3 inbox, a customer with both feature flags, its account. */
async function configure(inbox: boolean) {
  const partner = await h.newPartner({ configure: false });
  const body = {
    partnerId: partner.partnerId,
    ...(inbox
      ? {
          awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
          deliveryDestinations: { DeliverToS3: { bucketName: smallAccount.INBOX_BUCKET } },
        }
      : {}),
  };
  expect(
    (await h.call("PUT", `/partner/${partner.partnerId}`, { key: partner.key, body })).status,
  ).toBe(200);
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
  const base = `/partner/${partner.partnerId}/customer/${tenant}/account/${accountId}`;
  const role = {
    roleArn: smallAccount.AUDITOR_ROLE_ARN,
    externalId: `${smallAccount.EXTERNAL_ID}-${partner.partnerId}`,
  };
  assumableRoles.push(role);
  const account = await h.call("PUT", base, {
    key: partner.key,
    body: {
      partnerId: partner.partnerId,
      partnerCustomerId: tenant,
      accountId,
      provider: "aws",
      auditorAuthMethod: "config",
      auditorAuthConfig: role,
    },
  });
  expect(account.status).toBe(200);
  return { ...partner, tenant, base, customerId: customer.json.customerId as string };
}

async function triggerAndWait(p: Awaited<ReturnType<typeof configure>>) {
  const trigger = await h.call("POST", `${p.base}/analysis`, {
    key: p.key,
    body: { partnerId: p.partnerId, partnerCustomerId: p.tenant, accountId },
  });
  expect(trigger.status).toBe(202);
  const executionId = trigger.json.executionId as string;
  for (;;) {
    const read = await h.call("GET", `/executions/${executionId}`, { key: p.key });
    const execution = ExecutionRecord.parse(read.json);
    if (execution.status === "succeeded" || execution.status === "failed") return execution;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("trigger → worker → secure inbox, through the API", () => {
  it("delivers the reports to the partner's S3 inbox, encrypted with its key", async () => {
    const partner = await configure(true);
    const execution = await triggerAndWait(partner);
    expect(execution).toMatchObject({ status: "succeeded", kind: "ondemand", warnings: [] });
    // k9's 4 reports × (CSV, JSON Lines) × (dated, latest), the paths report × (dated, latest),
    // 5 Parquet hive copies, 2 manifests.
    expect(execution.reports).toHaveLength(4 * 2 * 2 + 2 + 5 + 2);
    for (const key of execution.reports) {
      const object = fake.objects.get(`${smallAccount.INBOX_BUCKET}/${key}`);
      expect(object?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(
        smallAccount.INBOX_KEY_ARN,
      );
    }
    expect(execution.reports.at(-1)).toBe(
      `customers/${partner.customerId}/reports/aws/${accountId}/latest/manifest.latest.json`,
    );
  });

  it("delivers to the local folder inbox when the partner has no bucket", async () => {
    const partner = await configure(false);
    const execution = await triggerAndWait(partner);
    expect(execution.status).toBe("succeeded");
    const latest = path.join(
      settings.analysis.inboxDir,
      "customers",
      partner.customerId,
      "reports",
      "aws",
      accountId,
      "latest",
    );
    expect((await readdir(latest)).sort()).toEqual(
      [
        "manifest.latest.json",
        ...[
          "principals",
          "resources",
          "principal-access-summaries",
          "resource-access-summaries",
        ].flatMap((type) => [`${type}.latest.csv`, `${type}.latest.jsonl`]),
        "resource-access-paths.latest.jsonl",
      ].sort(),
    );
    const principals = await readFile(path.join(latest, "principals.latest.csv"), "utf8");
    expect(principals).toContain(`arn:aws:iam::${accountId}:user/alice`);
    expect(fake.objects.size).toBe(
      [...fake.objects.keys()].filter((key) => !key.includes(partner.customerId)).length,
    );
  });
});
