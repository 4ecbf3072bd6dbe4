import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import {
  ACCOUNT_ID,
  INBOX_KEY_ARN,
  KEY_ARN,
  model as smallAccount,
} from "@sightline/aws-fake/small-account";
import { authorize, createAccountModel } from "@sightline/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assumeFixtureRole, collectWithFake } from "./fixtures/collect-with-fake.ts";

describe("collectAccount against the loopback fake", () => {
  let fake: FakeAws;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
  });
  afterEach(async () => {
    await fake.close();
  });

  async function assumeAndCollect() {
    const credentials = await assumeFixtureRole(fake);
    return { credentials, collected: await collectWithFake(fake, { credentials }) };
  }

  it("collects a snapshot the engine reads without errors", async () => {
    const { collected } = await assumeAndCollect();
    const model = createAccountModel(collected.snapshot);
    expect(model.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(collected.warnings).toEqual([]);
    const alice = `arn:aws:iam::${ACCOUNT_ID}:user/alice`;
    const read = authorize(model, {
      principal: alice,
      action: "s3:GetObject",
      resource: "arn:aws:s3:::reports/q1.csv",
    });
    expect(read.decision).toBe("allowed");
    const leave = authorize(model, {
      principal: alice,
      action: "organizations:LeaveOrganization",
      resource: "*",
    });
    expect(leave.decision).toBe("explicit-deny");
  });

  it("signs every call after AssumeRole with the assumed role's key", async () => {
    const { credentials } = await assumeAndCollect();
    const assume = fake.calls.findIndex((call) => call.operation === "AssumeRole");
    expect(fake.calls[assume]?.accessKeyId).toBe(fake.serviceCredentials.accessKeyId);
    const after = fake.calls.slice(assume + 1);
    expect(after.length).toBeGreaterThan(20);
    expect(new Set(after.map((call) => call.accessKeyId))).toEqual(
      new Set([credentials.accessKeyId]),
    );
  });

  it("reads every GAAD page, decoding documents and keeping the default version", async () => {
    const { collected } = await assumeAndCollect();
    const pages = fake.calls.filter((call) => call.operation === "GetAccountAuthorizationDetails");
    expect(pages.length).toBe(4);
    const details = collected.snapshot.authorizationDetails as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(details.UserDetailList?.map((user) => user.UserName)).toEqual(["alice", "bob"]);
    expect(details.RoleDetailList?.[1]?.AssumeRolePolicyDocument).toEqual({
      Version: "2012-10-17",
      Statement: [
        { Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" },
      ],
    });
    expect(details.Policies?.map((policy) => policy.Arn)).toContain(
      "arn:aws:iam::aws:policy/AdministratorAccess",
    );
  });

  it("collects bucket and key policies, tags, regions, SCP and RCP paths", async () => {
    const { collected } = await assumeAndCollect();
    const { snapshot, metadata } = collected;
    const policies = snapshot.resourcePolicies ?? {};
    expect(Object.keys(policies).sort()).toEqual([KEY_ARN, INBOX_KEY_ARN, "arn:aws:s3:::reports"]);
    expect(policies["arn:aws:s3:::reports"]).toMatchObject({
      Statement: [{ Action: "s3:GetObject" }],
    });
    expect([...(snapshot.buckets ?? [])].sort()).toEqual([
      "arn:aws:s3:::logs",
      "arn:aws:s3:::partner-inbox",
      "arn:aws:s3:::reports",
    ]);
    expect(metadata.buckets["arn:aws:s3:::reports"]).toEqual({
      name: "reports",
      region: "eu-west-1",
      tags: { confidentiality: "high", owner: "data" },
    });
    expect(metadata.buckets["arn:aws:s3:::logs"]).toEqual({
      name: "logs",
      region: "us-east-1",
      tags: {},
    });
    expect(metadata.keys[KEY_ARN]).toEqual({
      keyId: "1234abcd-12ab-34cd-56ef-1234567890ab",
      region: "us-east-1",
      aliases: ["alias/reports"],
      state: "Enabled",
      tags: { environment: "prod" },
    });
    expect(metadata.regions).toEqual(["eu-west-1", "us-east-1"]);
    // AWS managed keys: listed by ARN only, so that the engine refuses changes to them.
    expect(snapshot.awsManagedKeys).toEqual([
      "arn:aws:kms:us-east-1:210987654321:key/aaaa0000-0000-0000-0000-000000000001",
    ]);
    expect(Object.keys(metadata.keys)).not.toContain(
      "arn:aws:kms:us-east-1:210987654321:key/aaaa0000-0000-0000-0000-000000000001",
    );
    const org = snapshot.organization;
    expect(org?.organizationId).toBe("o-abc123");
    expect(org?.isManagementAccount).toBe(false);
    expect(
      org?.serviceControlPolicies?.map((level) => [level.target, level.policies.map((p) => p.id)]),
    ).toEqual([
      ["r-root", ["p-FullAWSAccess"]],
      ["ou-root-prod", ["p-FullAWSAccess", "p-guardrails"]],
      [ACCOUNT_ID, ["p-FullAWSAccess"]],
    ]);
    expect(org?.resourceControlPolicies?.map((level) => level.target)).toEqual([
      "r-root",
      "ou-root-prod",
      ACCOUNT_ID,
    ]);
  });

  it("keeps role last use and the credential report for the reports", async () => {
    const { collected } = await assumeAndCollect();
    const { metadata } = collected;
    expect(metadata.roleLastUsed).toEqual({
      [`arn:aws:iam::${ACCOUNT_ID}:role/Deployer`]: {
        lastUsedDate: "2024-05-01T12:00:00.000Z",
        region: "eu-west-1",
      },
    });
    expect(metadata.credentialReport?.rows.map((row) => row.user)).toEqual([
      "<root_account>",
      "alice",
      "bob",
    ]);
    expect(metadata.callerArn).toMatch(
      /^arn:aws:sts::210987654321:assumed-role\/SightlineAuditor\//,
    );
  });
});
