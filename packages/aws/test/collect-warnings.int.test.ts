import { type FakeAccountModel, type FakeAws, startFakeAws } from "@sightline/aws-fake";
import {
  ACCOUNT_ID,
  KEY_ARN,
  KEY_ID,
  model as smallAccount,
} from "@sightline/aws-fake/small-account";
import { analyzeAccount, createAccountModel } from "@sightline/engine";
import { afterEach, describe, expect, it } from "vitest";
import { collectWithFake } from "./fixtures/collect-with-fake.ts";

describe("collectAccount: what cannot be read becomes a warning", () => {
  let fake: FakeAws | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  async function start(model: FakeAccountModel = smallAccount) {
    fake = await startFakeAws(model);
    return fake;
  }

  it("reports an unreadable bucket policy with the bucket ARN and goes on", async () => {
    const aws = await start();
    aws.inject({ operation: "GetBucketPolicy", kind: "access-denied", resource: "reports" });
    const { snapshot, warnings } = await collectWithFake(aws);
    expect(warnings).toEqual([
      {
        kind: "resource-unreadable",
        action: "s3:GetBucketPolicy",
        resourceArn: "arn:aws:s3:::reports",
        message: expect.stringMatching(
          /^The bucket policy was not analysed: s3:GetBucketPolicy on arn:aws:s3:::reports failed \(AccessDenied: /,
        ),
      },
    ]);
    expect(snapshot.resourcePolicies?.["arn:aws:s3:::reports"]).toBeUndefined();
  });

  it("marks a key whose policy it was refused, and the analysis answers its access conditional", async () => {
    const aws = await start();
    aws.inject({ operation: "GetKeyPolicy", kind: "access-denied", resource: KEY_ID });
    const { snapshot, warnings } = await collectWithFake(aws);
    expect(warnings.map((w) => [w.kind, w.action, w.resourceArn])).toEqual([
      ["resource-unreadable", "kms:GetKeyPolicy", KEY_ARN],
    ]);
    expect(warnings[0]?.message).toContain("conditional");
    expect(snapshot.resourcePolicies?.[KEY_ARN]).toBeUndefined();
    expect(snapshot.unreadableKeyPolicies).toEqual([KEY_ARN]);
    // Not the default key policy: who holds the key's capabilities holds them under conditions.
    const analysis = analyzeAccount(createAccountModel(snapshot), { accounts: [ACCOUNT_ID] });
    const rows = [...analysis.resourceAccessSummaries()].filter((r) => r.resourceArn === KEY_ARN);
    expect(rows).not.toHaveLength(0);
    for (const row of rows) expect(row.conditional).toBe(true);
  });

  it("warns that SCPs were not applied when the account cannot read its organization", async () => {
    const organization = smallAccount.organization && {
      ...smallAccount.organization,
      delegatedAdministrator: false,
    };
    const aws = await start({ ...smallAccount, ...(organization ? { organization } : {}) });
    const { snapshot, warnings } = await collectWithFake(aws);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.kind).toBe("scps-not-applied");
    expect(warnings[0]?.message).toMatch(
      /^SCPs were not applied \(only the management account or a delegated administrator/,
    );
    expect(warnings[0]?.message).toContain("organizations:ListRoots");
    expect(snapshot.organization).toEqual({
      organizationId: "o-abc123",
      isManagementAccount: false,
    });
  });

  it("collects no organization and no warning for an account outside any organization", async () => {
    const { organization: _, ...standalone } = smallAccount;
    const aws = await start(standalone);
    const { snapshot, warnings } = await collectWithFake(aws);
    expect(warnings).toEqual([]);
    expect(snapshot.organization).toBeUndefined();
  });

  it("leaves out an RCP type that the root has not enabled, instead of denying everything", async () => {
    const organization = smallAccount.organization && {
      ...smallAccount.organization,
      enabledPolicyTypes: ["SERVICE_CONTROL_POLICY" as const],
    };
    const aws = await start({ ...smallAccount, ...(organization ? { organization } : {}) });
    const { snapshot } = await collectWithFake(aws);
    expect(snapshot.organization?.serviceControlPolicies).toHaveLength(3);
    expect(snapshot.organization?.resourceControlPolicies).toBeUndefined();
  });

  it("fetches attached managed policies GAAD left out, and warns about unreadable ones", async () => {
    const securityAudit = {
      PolicyName: "SecurityAudit",
      Arn: "arn:aws:iam::aws:policy/SecurityAudit",
      Path: "/",
      DefaultVersionId: "v3",
      PolicyVersionList: [
        {
          Document: {
            Version: "2012-10-17",
            Statement: [{ Effect: "Allow", Action: "iam:Get*", Resource: "*" }],
          },
          VersionId: "v3",
          IsDefaultVersion: true,
        },
      ],
    };
    const details = smallAccount.authorizationDetails ?? {};
    const [alice, ...others] = details.UserDetailList ?? [];
    const attached = [
      { PolicyName: "SecurityAudit", PolicyArn: securityAudit.Arn },
      { PolicyName: "Gone", PolicyArn: "arn:aws:iam::aws:policy/Gone" },
    ];
    const aws = await start({
      ...smallAccount,
      authorizationDetails: {
        ...details,
        UserDetailList: [{ ...alice, AttachedManagedPolicies: attached }, ...others],
      },
      policiesOutsideGaad: [securityAudit],
    });
    const { snapshot, warnings } = await collectWithFake(aws);
    const model = createAccountModel(snapshot);
    expect(model.issues.filter((issue) => issue.message.includes("SecurityAudit"))).toEqual([]);
    expect(warnings.map((warning) => [warning.kind, warning.action, warning.resourceArn])).toEqual([
      ["managed-policy-unreadable", "iam:GetPolicy", "arn:aws:iam::aws:policy/Gone"],
    ]);
  });

  it("falls back to the home region, with a warning, when regions cannot be listed", async () => {
    const aws = await start();
    aws.inject({ operation: "DescribeRegions", kind: "access-denied" });
    aws.inject({ operation: "GenerateCredentialReport", kind: "access-denied" });
    const { metadata, warnings } = await collectWithFake(aws);
    expect(metadata.regions).toEqual(["us-east-1"]);
    expect(metadata.credentialReport).toBeUndefined();
    expect(warnings.map((warning) => warning.kind).sort()).toEqual([
      "credential-report-unavailable",
      "listing-unreadable",
    ]);
    const kms = aws.calls.filter((call) => call.service === "kms");
    expect(kms).not.toHaveLength(0);
    expect(kms.every((call) => call.region === "us-east-1")).toBe(true);
  });

  it("warns when IAM does not finish the credential report in time", async () => {
    const aws = await start({ ...smallAccount, credentialReportPolls: 1000 });
    const { metadata, warnings } = await collectWithFake(aws, { credentialReportTimeoutMs: 50 });
    expect(metadata.credentialReport).toBeUndefined();
    expect(warnings[0]?.message).toMatch(
      /^Password and access key columns are empty: IAM did not finish/,
    );
    expect(ACCOUNT_ID).toBe(metadata.accountId);
  });
});
