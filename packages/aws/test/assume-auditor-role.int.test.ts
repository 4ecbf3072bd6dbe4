import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import {
  AUDITOR_ROLE_ARN,
  EXTERNAL_ID,
  model as smallAccount,
} from "@sightline/aws-fake/small-account";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { assumeAuditorRole } from "../src/credentials/assume-auditor-role.ts";
import { failureOf } from "./fixtures/failure-of.ts";

describe("assumeAuditorRole", () => {
  let fake: FakeAws;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await fake.close();
  });

  const input = () => ({
    roleArn: AUDITOR_ROLE_ARN,
    externalId: EXTERNAL_ID,
    partition: "aws" as const,
    sessionName: "daily-P123456-000000000001-210987654321-2024-06-01_AB12",
    sourceCredentials: fake.serviceCredentials,
    clientOptions: fake.clientOptions,
  });

  it("returns the role session's temporary credentials, signed for with Sightline's key", async () => {
    const credentials = await assumeAuditorRole(input());
    expect(credentials.accessKeyId).toMatch(/^ASIA/);
    expect(credentials.sessionToken).toBeTruthy();
    expect(credentials.expiration.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(credentials.assumedRoleArn).toBe(
      "arn:aws:sts::210987654321:assumed-role/SightlineAuditor/daily-P123456-000000000001-210987654321-2024-06-01_AB12",
    );
    expect(fake.calls).toEqual([
      expect.objectContaining({
        service: "sts",
        operation: "AssumeRole",
        region: "us-east-1",
        accessKeyId: fake.serviceCredentials.accessKeyId,
        status: 200,
      }),
    ]);
  });

  it("fails ASSUME_ROLE_DENIED, not retryable, for a wrong external ID", async () => {
    const error = await failureOf(assumeAuditorRole({ ...input(), externalId: "wrong-id" }));
    expect(error.code).toBe("ASSUME_ROLE_DENIED");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^AssumeRole was denied: check that the trust policy of arn:aws:iam::210987654321:role\/SightlineAuditor trusts Sightline's principal and that its sts:ExternalId condition matches/,
    );
    expect(error.message).not.toContain(fake.serviceCredentials.secretAccessKey);
  });

  it("fails CREDENTIAL_INVALID when STS does not know Sightline's own key", async () => {
    const unknown = { accessKeyId: "AKIAUNKNOWNKEY000000", secretAccessKey: "x".repeat(40) };
    const error = await failureOf(assumeAuditorRole({ ...input(), sourceCredentials: unknown }));
    expect(error.code).toBe("CREDENTIAL_INVALID");
    expect(error.message).toContain("InvalidClientTokenId");
  });

  it("refuses a role of another partition before calling STS", async () => {
    const error = await failureOf(assumeAuditorRole({ ...input(), partition: "aws-us-gov" }));
    expect(error.code).toBe("CREDENTIAL_INVALID");
    expect(fake.calls).toEqual([]);
  });

  it("calls the partition's home region for aws-us-gov", async () => {
    const govRole = "arn:aws-us-gov:iam::210987654321:role/SightlineAuditor";
    await fake.close();
    fake = await startFakeAws({
      ...smallAccount,
      partition: "aws-us-gov",
      assumableRoles: [{ roleArn: govRole, externalId: EXTERNAL_ID }],
    });
    const credentials = await assumeAuditorRole({
      ...input(),
      roleArn: govRole,
      partition: "aws-us-gov",
    });
    expect(credentials.assumedRoleArn).toMatch(/^arn:aws-us-gov:sts::210987654321:assumed-role\//);
    expect(fake.calls[0]?.region).toBe("us-gov-west-1");
  });

  it("fails CLOUD_UNAVAILABLE, retryable, when STS cannot be reached", async () => {
    const url = fake.url;
    await fake.close();
    const error = await failureOf(
      assumeAuditorRole({ ...input(), clientOptions: { endpoints: { sts: url }, maxAttempts: 1 } }),
    );
    expect(error.code).toBe("CLOUD_UNAVAILABLE");
    expect(error.retryable).toBe(true);
    fake = await startFakeAws(smallAccount);
  });

  it("follows AWS_ENDPOINT_URL_STS when no endpoint is configured", async () => {
    vi.stubEnv("AWS_ENDPOINT_URL_STS", fake.url);
    const credentials = await assumeAuditorRole({ ...input(), clientOptions: {} });
    expect(credentials.accessKeyId).toMatch(/^ASIA/);
    expect(fake.calls.map((call) => call.operation)).toEqual(["AssumeRole"]);
  });
});
