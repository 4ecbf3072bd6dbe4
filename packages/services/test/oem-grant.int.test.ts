import { smallAccount } from "@sightline/aws-fake";
import { smallTenant } from "@sightline/azure-fake";
import { getExecution, setOemGrant, upsertMonitoredAccount } from "@sightline/db";
import { AppError } from "@sightline/domain";
import { afterAll, describe, expect, it } from "vitest";
import { runAnalysis } from "../src/analysis/run-analysis.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startPipeline } from "./support/pipeline.ts";

// No worker: each attempt runs here, after the grant is revoked. Nothing answers at the vending
// URL: an attempt that reached it would fail as retryable, not FORBIDDEN.
const pipeline = await startPipeline({
  worker: false,
  azure: true,
  credentialVending: { url: "http://127.0.0.1:9/credentials", token: "vending-token-0123456789" },
});
afterAll(() => pipeline.close());
const { ctx, settings } = pipeline;

const rule = (partnerId: string) =>
  `auditorAuthMethod 'cvs' (credential vending) is for OEM integrations, and only the operator makes partner ${partnerId} an OEM integration (PUT /admin/partners/${partnerId}/oem-integration); ask the operator`;

/** An AWS account of a new partner, monitored with `cvs` while the operator grants it. */
async function awsCvsPartner() {
  const partner = await pipeline.partner();
  await setOemGrant(ctx.db, partner.partnerId, true);
  const stored = await upsertMonitoredAccount(ctx.db, {
    ...partner,
    accountId: smallAccount.ACCOUNT_ID,
    provider: "aws",
    auditorAuthMethod: "cvs",
  });
  expect(stored.kind).toBe("stored");
  return { ...partner, accountId: smallAccount.ACCOUNT_ID };
}

const azureCvsPartner = async () => ({
  ...(await pipeline.azurePartner({ auditorAuthMethod: "cvs" })),
  accountId: smallTenant.SUBSCRIPTION_ID,
});

describe("a cvs account whose partner the operator no longer grants", () => {
  it.each([
    ["AWS", awsCvsPartner],
    ["Azure", azureCvsPartner],
  ])("%s: an execution queued before the revocation fails FORBIDDEN, at once", async (_, make) => {
    const partner = await make();
    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", ...partner },
      accountId: partner.accountId,
      kind: "ondemand",
    });
    await setOemGrant(ctx.db, partner.partnerId, false);
    const outcome = await runAnalysis(ctx, settings.analysis, executionId, { final: false });
    const message = `Account ${partner.accountId} cannot be analysed: ${rule(partner.partnerId)}`;
    expect(outcome).toEqual({ status: "failed", failure: { code: "FORBIDDEN", message } });
    expect(await getExecution(ctx.db, executionId)).toMatchObject({
      status: "failed",
      failureCode: "FORBIDDEN",
      failureMessage: message,
      attempts: 1,
    });
  });

  it("is refused by the trigger, on demand and daily (FORBIDDEN)", async () => {
    const partner = await awsCvsPartner();
    await setOemGrant(ctx.db, partner.partnerId, false);
    for (const request of [
      { owner: { kind: "partner" as const, ...partner }, kind: "ondemand" as const },
      {
        owner: { kind: "customer-id" as const, customerId: partner.customerId },
        kind: "daily" as const,
      },
    ]) {
      const refused = await triggerAnalysis(ctx, { ...request, accountId: partner.accountId }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining(rule(partner.partnerId)),
      });
    }
  });
});
