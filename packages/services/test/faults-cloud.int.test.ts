import { type FakeService, smallAccount } from "@sightline/aws-fake";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { until } from "./support/fault-holds.ts";
import { checkInvariants } from "./support/invariants.ts";
import { startPipeline } from "./support/pipeline.ts";

// The cloud failing under an analysis: each fault ends as a retry that succeeds or a clear
// failure, as the failure is, and the invariants hold after it. The SDK makes 3 attempts per
// call, the job 3 (1 s apart); an AWS call silent for 5 s has timed out.
const pipeline = await startPipeline();
afterAll(() => pipeline.close());
afterEach(() => pipeline.fake.clearFaults());
const { ctx, fake } = pipeline;
const bucket = smallAccount.INBOX_BUCKET;
const keyArn = smallAccount.INBOX_KEY_ARN;
pipeline.settings.analysis.awsClientOptions = {
  ...pipeline.settings.analysis.awsClientOptions,
  requestTimeoutMs: 5000,
};
const partner = await pipeline.partner({
  featureFlags: { latestReportEnabled: true, hiveEnabled: true },
});

async function analyse() {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
  });
  const report = await checkInvariants({
    db: ctx.db,
    executionIds: [executionId],
    inbox: { kind: "s3", fake, bucket },
    workDir: pipeline.settings.analysis.workDir,
    endWithinSeconds: 60,
  });
  expect(report.violations).toEqual([]);
  return pipeline.finished(executionId);
}

/** Once a delivery is under way (a write held back for a moment), `change` happens. */
async function midDelivery(change: () => void) {
  fake.inject({ operation: "PutObject", resource: bucket, kind: "delay", delayMs: 1000, after: 3 });
  const delayed = () => fake.calls.some((c) => c.operation === "PutObject" && c.status === 0);
  const changed = until(delayed, 60, "a delivery under way").then(change);
  const execution = await analyse();
  await changed;
  return execution;
}

describe("the cloud failing", () => {
  // KMS keys are listed in both of the account's regions at once: 3 throttled calls each.
  it.each<[FakeService, string, "server-error" | "throttle", number]>([
    ["sts", "AssumeRole", "server-error", 4],
    ["iam", "GetAccountAuthorizationDetails", "server-error", 4],
    ["kms", "ListKeys", "throttle", 6],
    ["s3", "PutObject", "server-error", 4],
  ])(
    "%s answering %s with %s past the SDK's retries: the job's retry succeeds",
    async (service, operation, kind, times) => {
      fake.inject({ service, operation, kind, times });
      const execution = await analyse();
      expect(execution.status).toBe("succeeded");
      expect(execution.attempts).toBeGreaterThanOrEqual(2);
      expect(execution.warnings.map((w) => w.code)).toContainEqual(
        kind === "throttle" ? "THROTTLED" : "CLOUD_UNAVAILABLE",
      );
    },
  );

  it("S3 unavailable for longer than the retries: a clear failure, no manifest", async () => {
    fake.inject({ service: "s3", operation: "PutObject", kind: "server-error" });
    const execution = await analyse();
    expect(execution).toMatchObject({
      status: "failed",
      failureCode: "CLOUD_UNAVAILABLE",
      attempts: pipeline.settings.queue.retryLimit + 1,
    });
    expect(execution.failureMessage).toContain(bucket);
  });

  it("a slow S3 part: a write that stalls times out and is sent again; one that is slow holds its lease", async () => {
    fake.inject({
      operation: "PutObject",
      resource: bucket,
      kind: "delay",
      delayMs: 60_000,
      times: 1,
    });
    const stalled = await analyse();
    expect(stalled).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(fake.calls.filter((c) => c.status === 499)).toHaveLength(1);

    // Slower than the lease's life (4 s), never silent long enough to time out.
    fake.inject({
      operation: "PutObject",
      resource: bucket,
      kind: "delay",
      delayMs: 1500,
      times: 4,
    });
    const slow = await analyse();
    expect(slow).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(slow.warnings.map((w) => w.code)).not.toContain("WORKER_LOST");
  });

  it("a bucket policy changed to deny in the middle of a delivery: INBOX_DENIED, nothing vouched for", async () => {
    const execution = await midDelivery(() =>
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
    );
    fake.control.setBucketPolicy(bucket, undefined);
    expect(execution).toMatchObject({ status: "failed", failureCode: "INBOX_DENIED", attempts: 1 });
    expect(execution.failureMessage).toMatch(/bucket policy must allow/);
  });

  it("the KMS key disabled in the middle of a delivery: INBOX_DENIED naming the key", async () => {
    const execution = await midDelivery(() =>
      fake.control.changeKeyState(keyArn, "us-east-1", "DisableKey"),
    );
    fake.control.changeKeyState(keyArn, "us-east-1", "EnableKey");
    expect(execution).toMatchObject({ status: "failed", failureCode: "INBOX_DENIED", attempts: 1 });
    expect(execution.failureMessage).toContain(keyArn);
    expect(execution.failureMessage).toMatch(/is enabled/);
  });
});
