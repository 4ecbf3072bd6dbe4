import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import { ACCOUNT_ID, model as smallAccount } from "@sightline/aws-fake/small-account";
import type { AccessChange } from "@sightline/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importSecurityHubFindings } from "../src/alerts/import-security-hub-findings.ts";
import { securityHubFinding } from "../src/alerts/security-hub-findings.ts";
import { failureOf } from "./fixtures/failure-of.ts";

const ROLE = `arn:aws:iam::${ACCOUNT_ID}:role/SightlineFindings`;
const EXTERNAL_ID = "findings-ext-1";

const change = (n: number, overrides: Partial<AccessChange> = {}): AccessChange => ({
  changeId: n.toString(16).padStart(32, "0"),
  kind: "access-gained",
  change: "added",
  principalArn: `arn:aws:iam::111122223333:role/role-${n}`,
  principalName: `role-${n}`,
  principalType: "IAMRole",
  serviceName: "S3",
  accessCapability: "read-data",
  resourceArn: "arn:aws:s3:::payroll",
  confidential: false,
  before: "no access",
  after: "read-data",
  grantedBy: ["inline 'read-all'"],
  ...overrides,
});

const context = {
  hubAccountId: ACCOUNT_ID,
  region: "eu-west-1",
  partition: "aws",
  accountId: "111122223333",
  provider: "aws",
  executionId: "ondemand-C12345-111122223333-2026-01-31_AB12",
  analysisTime: new Date("2026-01-31T07:00:00Z"),
};

describe("importSecurityHubFindings", () => {
  let fake: FakeAws;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
    fake.trustExternalId(ROLE, EXTERNAL_ID);
  });
  afterEach(() => fake.close());

  const input = (findings: ReturnType<typeof securityHubFinding>[]) => ({
    roleArn: ROLE,
    externalId: EXTERNAL_ID,
    region: "eu-west-1",
    sessionName: "sightline-alert-0123",
    findings,
    sourceCredentials: fake.serviceCredentials,
    clientOptions: { ...fake.clientOptions, maxAttempts: 1 },
  });

  it("assumes the role with its external ID and imports one ASFF finding per change, 100 a call", async () => {
    const changes = Array.from({ length: 230 }, (_, i) =>
      change(i, i === 0 ? { kind: "iam-admin-gained" } : {}),
    );
    const result = await importSecurityHubFindings(
      input(changes.map((c) => securityHubFinding(c, context))),
    );
    expect(result).toEqual({ imported: 230, failed: [] });
    const calls = fake.calls.map((c) => `${c.service}:${c.operation}:${c.region}`);
    expect(calls).toEqual([
      "sts:AssumeRole:us-east-1",
      "securityhub:BatchImportFindings:eu-west-1",
      "securityhub:BatchImportFindings:eu-west-1",
      "securityhub:BatchImportFindings:eu-west-1",
    ]);
    // Imported with the role's session, never with Sightline's own key.
    expect(fake.calls.slice(1).map((c) => c.accessKeyId)).not.toContain(
      fake.serviceCredentials.accessKeyId,
    );
    expect(fake.findings).toHaveLength(230);
    const [first, second] = fake.findings;
    expect(first).toMatchObject({ region: "eu-west-1", accountId: ACCOUNT_ID });
    expect(first?.importedBy).toContain(":assumed-role/SightlineFindings/");
    expect(first?.finding).toMatchObject({
      Id: changes[0]?.changeId,
      ProductArn: `arn:aws:securityhub:eu-west-1:${ACCOUNT_ID}:product/${ACCOUNT_ID}/default`,
      GeneratorId: "sightline/iam-admin-gained",
      AwsAccountId: ACCOUNT_ID,
      Types: ["Software and Configuration Checks/AWS Security Best Practices"],
      Severity: { Label: "HIGH" },
      CreatedAt: "2026-01-31T07:00:00.000Z",
      UpdatedAt: "2026-01-31T07:00:00.000Z",
      ProductFields: expect.objectContaining({ "sightline/accountId": "111122223333" }),
    });
    expect(second?.finding).toMatchObject({
      Severity: { Label: "MEDIUM" },
      Resources: [
        { Type: "AwsS3Bucket", Id: "arn:aws:s3:::payroll" },
        { Type: "Other", Id: "aws:111122223333" },
      ],
    });
    expect(String(second?.finding.Title)).toBe("Access gained: role-1 in aws account 111122223333");
    expect(String(second?.finding.Description)).toContain(
      "S3 read-data on arn:aws:s3:::payroll: no access → read-data; granted by inline 'read-all'",
    );
  });

  it("imports the same change again as an update of its finding, not a second one", async () => {
    const findings = [securityHubFinding(change(1), context)];
    await importSecurityHubFindings(input(findings));
    await importSecurityHubFindings(input(findings));
    expect(fake.findings).toHaveLength(1);
  });

  it("returns the findings Security Hub refused in a failed batch (FailedCount)", async () => {
    fake.inject({
      service: "securityhub",
      operation: "BatchImportFindings",
      kind: "failed-findings",
      times: 1,
    });
    const changes = Array.from({ length: 150 }, (_, i) => change(i));
    const result = await importSecurityHubFindings(
      input(changes.map((c) => securityHubFinding(c, context))),
    );
    expect(result.imported).toBe(50);
    expect(result.failed).toHaveLength(100);
    expect(result.failed[0]).toEqual({
      id: changes[0]?.changeId,
      code: "InternalException",
      message: "Internal failure",
    });
    expect(fake.findings).toHaveLength(50);
  });

  it("refuses a finding of another account under the default product", async () => {
    const finding = securityHubFinding(change(1), { ...context, hubAccountId: "444455556666" });
    const result = await importSecurityHubFindings(input([finding]));
    expect(result.imported).toBe(0);
    expect(result.failed[0]?.code).toBe("AccessDeniedException");
  });

  it("fails ASSUME_ROLE_DENIED for a wrong external ID, and sends nothing to Security Hub", async () => {
    const error = await failureOf(
      importSecurityHubFindings({
        ...input([securityHubFinding(change(1), context)]),
        externalId: "other",
      }),
    );
    expect(error).toMatchObject({ code: "ASSUME_ROLE_DENIED", retryable: false });
    expect(fake.calls.map((c) => c.service)).toEqual(["sts"]);
  });

  it("fails retryable on throttling and on a server error, not retryable when denied", async () => {
    const findings = [securityHubFinding(change(1), context)];
    fake.inject({
      service: "securityhub",
      operation: "BatchImportFindings",
      kind: "throttle",
      times: 1,
    });
    expect(await failureOf(importSecurityHubFindings(input(findings)))).toMatchObject({
      code: "THROTTLED",
      retryable: true,
    });
    fake.inject({
      service: "securityhub",
      operation: "BatchImportFindings",
      kind: "server-error",
      times: 1,
    });
    expect(await failureOf(importSecurityHubFindings(input(findings)))).toMatchObject({
      code: "CLOUD_UNAVAILABLE",
      retryable: true,
    });
    fake.inject({
      service: "securityhub",
      operation: "BatchImportFindings",
      kind: "access-denied",
      times: 1,
    });
    const denied = await failureOf(importSecurityHubFindings(input(findings)));
    expect(denied).toMatchObject({ code: "ACCESS_DENIED", retryable: false });
    expect(denied.message).toContain("securityhub:BatchImportFindings was denied");
  });
});
