import { randomInt } from "node:crypto";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { AppError, SECURITY_HUB_ROLE_IN_USE } from "@sightline/domain";
import { afterAll, describe, expect, it } from "vitest";
import { getAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { enqueueAlerts } from "../src/alerts/enqueue-alerts.ts";
import { accessChange, startAlerts } from "./support/alerts.ts";

const fake = await startFakeAws(smallAccount.model);
afterAll(() => fake.close());
const { ctx, ownerWith, settled } = await startAlerts({
  alerts: {
    aws: {
      serviceCredentials: fake.serviceCredentials,
      clientOptions: { ...fake.clientOptions, maxAttempts: 1 },
    },
  },
});

/** A role of the fake's account that trusts Sightline with an external ID of its own. */
function hubRole() {
  const roleArn = `arn:aws:iam::${smallAccount.ACCOUNT_ID}:role/SightlineFindings-${randomInt(1e9)}`;
  const externalId = `findings-${randomInt(1e9)}`;
  fake.trustExternalId(roleArn, externalId);
  return { roleArn, externalId };
}
const hub = (role: { roleArn: string; externalId: string }) => ({
  name: "security hub",
  kind: "securityhub",
  ...role,
  region: "eu-west-1",
  alertOn: ["iam-admin-gained", "external-access-gained", "access-gained"],
});

const analysis = (customerId: string, changes = [accessChange()]) => ({
  customerId,
  provider: "aws",
  accountId: "123456789012",
  executionId: `daily-${customerId}-123456789012-2026-01-31_HUB1`,
  analysisTime: new Date("2026-01-31T07:00:00Z"),
  changes,
});

describe("a Security Hub alert", () => {
  it("imports one ASFF finding per change into the role's account, through the real SDK", async () => {
    const role = hubRole();
    const { customerId, stored } = await ownerWith("direct", [hub(role)]);
    const changes = [
      accessChange({ kind: "iam-admin-gained", resourceArn: "" }),
      accessChange({ kind: "access-gained", reach: "account" }),
    ];
    await enqueueAlerts(ctx, analysis(customerId, changes));
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
    const imported = fake.findings.filter((f) => changes.some((c) => c.changeId === f.finding.Id));
    expect(imported.map((f) => f.finding.Severity)).toEqual([
      { Label: "HIGH" },
      { Label: "MEDIUM" },
    ]);
    expect(imported[0]).toMatchObject({
      region: "eu-west-1",
      accountId: smallAccount.ACCOUNT_ID,
      finding: {
        GeneratorId: "sightline/iam-admin-gained",
        AwsAccountId: smallAccount.ACCOUNT_ID,
        ProductArn: `arn:aws:securityhub:eu-west-1:${smallAccount.ACCOUNT_ID}:product/${smallAccount.ACCOUNT_ID}/default`,
      },
    });
    expect(imported[0]?.importedBy).toContain(`:assumed-role/${role.roleArn.split("/")[1]}/`);
    const sts = fake.calls.filter(
      (c) => c.operation === "AssumeRole" && c.resource === role.roleArn,
    );
    expect(sts).toHaveLength(1);
  });

  it("retries a batch Security Hub refused (FailedCount), and records both attempts", async () => {
    const { owner, customerId, stored } = await ownerWith("direct", [hub(hubRole())]);
    fake.inject({
      service: "securityhub",
      operation: "BatchImportFindings",
      kind: "failed-findings",
      times: 1,
    });
    await enqueueAlerts(ctx, analysis(customerId));
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 2 });
    const { destinations } = await getAlertDestinations(ctx, owner);
    expect(destinations[0]?.recentAttempts.map((a) => [a.outcome, a.error])).toEqual([
      ["delivered", undefined],
      ["retrying", "Security Hub refused 1 of 1 findings (InternalException: Internal failure)"],
    ]);
  });

  it("fails for good when the role does not trust Sightline with that external ID", async () => {
    const role = { ...hubRole(), externalId: "not-trusted-id" };
    const { customerId, stored } = await ownerWith("direct", [hub(role)]);
    await enqueueAlerts(ctx, analysis(customerId));
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    expect(delivery.lastError).toContain("AssumeRole was denied");
  });

  it("refuses (409) a role another tenant configured, and stores nothing", async () => {
    const role = hubRole();
    await ownerWith("partner", [hub(role)]);
    for (const externalId of [role.externalId, "another-external-id"]) {
      const error = await ownerWith("direct", [hub({ ...role, externalId })]).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "CONFLICT", message: SECURITY_HUB_ROLE_IN_USE });
    }
    // The same role again for its own owner is fine (a re-PUT).
    const again = await ownerWith("direct", [hub(hubRole())]);
    expect(again.stored).toHaveLength(1);
  });
});
