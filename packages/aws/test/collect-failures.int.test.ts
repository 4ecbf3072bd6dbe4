import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import { ACCOUNT_ID, model as smallAccount } from "@sightline/aws-fake/small-account";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectWithFake } from "./fixtures/collect-with-fake.ts";
import { failureOf } from "./fixtures/failure-of.ts";

describe("collectAccount: what fails the run, and what the SDK retries", () => {
  let fake: FakeAws;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
  });
  afterEach(async () => {
    await fake.close();
  });

  it("succeeds through a throttling storm, the SDK retrying every throttled call", async () => {
    fake.inject({ operation: "GetAccountAuthorizationDetails", kind: "throttle", times: 2 });
    fake.inject({ operation: "GetBucketPolicy", kind: "throttle", times: 2 });
    fake.inject({ operation: "ListKeys", kind: "throttle", times: 1 });
    fake.inject({ operation: "ListPoliciesForTarget", kind: "throttle", times: 1 });
    fake.inject({ operation: "DescribeRegions", kind: "throttle", times: 1 });
    const { snapshot, warnings } = await collectWithFake(fake);
    expect(warnings).toEqual([]);
    const throttled = fake.calls.filter((call) => call.status === 400 || call.status === 503);
    expect(throttled.map((call) => call.operation).sort()).toEqual([
      "DescribeRegions",
      "GetAccountAuthorizationDetails",
      "GetAccountAuthorizationDetails",
      "GetBucketPolicy",
      "GetBucketPolicy",
      "ListKeys",
      "ListPoliciesForTarget",
    ]);
    expect(snapshot.resourcePolicies?.["arn:aws:s3:::reports"]).toBeDefined();
    expect(snapshot.organization?.serviceControlPolicies).toHaveLength(3);
  });

  it("fails THROTTLED, retryable, when throttling outlasts the attempts", async () => {
    fake.inject({ operation: "GetAccountAuthorizationDetails", kind: "throttle" });
    const error = await failureOf(
      collectWithFake(fake, { clientOptions: { ...fake.clientOptions, maxAttempts: 2 } }),
    );
    expect(error.code).toBe("THROTTLED");
    expect(error.retryable).toBe(true);
    expect(
      fake.calls.filter((call) => call.operation === "GetAccountAuthorizationDetails"),
    ).toHaveLength(2);
  });

  it("retries 5xx answers, and fails CLOUD_UNAVAILABLE, retryable, when they persist", async () => {
    fake.inject({ operation: "GetCallerIdentity", kind: "server-error", times: 1 });
    await collectWithFake(fake);
    fake.inject({ operation: "GetCallerIdentity", kind: "server-error" });
    const error = await failureOf(
      collectWithFake(fake, { clientOptions: { ...fake.clientOptions, maxAttempts: 2 } }),
    );
    expect(error.code).toBe("CLOUD_UNAVAILABLE");
    expect(error.retryable).toBe(true);
  });

  it("fails ACCESS_DENIED, not retryable, when GAAD itself is denied", async () => {
    fake.inject({ operation: "GetAccountAuthorizationDetails", kind: "access-denied" });
    const error = await failureOf(collectWithFake(fake));
    expect(error.code).toBe("ACCESS_DENIED");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^iam:GetAccountAuthorizationDetails on account 210987654321 was denied/,
    );
    expect(error.message).toContain("deploy/aws/auditor-role.yaml");
  });

  it("fails CREDENTIAL_EXPIRED when the session expired", async () => {
    const expired = fake.issueSession({
      arn: `arn:aws:sts::${ACCOUNT_ID}:assumed-role/Auditor/caller`,
      expiresAt: new Date(Date.now() - 1000),
    });
    const error = await failureOf(collectWithFake(fake, { credentials: expired }));
    expect(error.code).toBe("CREDENTIAL_EXPIRED");
    expect(error.retryable).toBe(false);
  });

  it("fails CREDENTIAL_EXPIRED when the token expires mid-collection", async () => {
    fake.inject({ operation: "ListBuckets", kind: "expired-token" });
    const error = await failureOf(collectWithFake(fake));
    expect(error.code).toBe("CREDENTIAL_EXPIRED");
    expect(error.message).toContain("s3:ListAllMyBuckets");
  });

  it("refuses credentials of another account before reading anything", async () => {
    const other = fake.issueSession({
      arn: "arn:aws:sts::333333333333:assumed-role/Auditor/caller",
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const error = await failureOf(collectWithFake(fake, { credentials: other }));
    expect(error.code).toBe("CREDENTIAL_INVALID");
    expect(error.message).toBe(
      "The auditor credentials belong to account 333333333333, not to the monitored account 210987654321",
    );
    expect(fake.calls.map((call) => call.operation)).toEqual(["GetCallerIdentity"]);
  });
});
