import { smallAccount } from "@sightline/aws-fake";
import { getExecutionCredential } from "@sightline/db";
import type { OwnCredential } from "@sightline/domain";
import { afterAll, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { ownCredential as ownCredentialOf } from "./support/own-credential.ts";
import { startPipeline } from "./support/pipeline.ts";

const pipeline = await startPipeline();
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;
const accountId = smallAccount.ACCOUNT_ID;

/** Objects this customer got in the inbox. */
const delivered = (customerId: string) =>
  [...fake.objects.keys()].filter((key) => key.includes(`/customers/${customerId}/`));

async function analyse(
  partner: { partnerId: string; partnerCustomerId: string },
  credential?: OwnCredential,
) {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId,
    kind: "ondemand",
    ...(credential ? { credential } : {}),
  });
  return { executionId, execution: await pipeline.finished(executionId) };
}

const ownCredential = (expiresAt: Date) => ownCredentialOf(fake, accountId, expiresAt);

describe("failures become data", () => {
  it("a wrong external ID fails at once, names the role, and delivers nothing", async () => {
    const partner = await pipeline.partner({ externalId: "not-the-right-one" });
    const { execution } = await analyse(partner);
    expect(execution).toMatchObject({
      status: "failed",
      failureCode: "ASSUME_ROLE_DENIED",
      attempts: 1,
    });
    expect(execution.failureMessage).toContain(smallAccount.AUDITOR_ROLE_ARN);
    expect(execution.failureMessage).toMatch(/external ID/i);
    expect(delivered(partner.customerId)).toEqual([]);
  });

  it("an own credential collects, then is deleted; an expired one fails with its reason", async () => {
    const partner = await pipeline.partner();
    const good = await analyse(partner, ownCredential(new Date(Date.now() + 3_600_000)));
    expect(good.execution.status).toBe("succeeded");
    expect(good.execution.authMethod).toBe("credential");
    expect(await getExecutionCredential(ctx.db, good.executionId)).toBeUndefined();

    const expired = await analyse(partner, ownCredential(new Date(Date.now() - 60_000)));
    expect(expired.execution).toMatchObject({
      status: "failed",
      failureCode: "CREDENTIAL_EXPIRED",
    });
    expect(await getExecutionCredential(ctx.db, expired.executionId)).toBeUndefined();
  });

  it("a denied inbox fails without a manifest: nothing is half-delivered", async () => {
    const partner = await pipeline.partner();
    fake.inject({
      operation: "PutObject",
      kind: "access-denied",
      resource: smallAccount.INBOX_BUCKET,
      times: 1,
    });
    const { execution } = await analyse(partner);
    expect(execution).toMatchObject({ status: "failed", failureCode: "INBOX_DENIED" });
    expect(execution.failureMessage).toContain(smallAccount.INBOX_BUCKET);
    expect(delivered(partner.customerId).filter((key) => key.includes("/manifest."))).toEqual([]);
  });

  it("throttling past the SDK's retries runs the job again, which succeeds", async () => {
    const partner = await pipeline.partner();
    // The pipeline's SDK clients make 3 attempts: 4 throttled calls fail the first job attempt.
    fake.inject({ operation: "GetAccountAuthorizationDetails", kind: "throttle", times: 4 });
    const { execution } = await analyse(partner);
    expect(execution).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(execution.warnings).toContainEqual(
      expect.objectContaining({
        code: "THROTTLED",
        message: expect.stringMatching(/^attempt 1 failed/),
      }),
    );
    expect(delivered(partner.customerId).some((key) => key.includes("/manifest."))).toBe(true);
  });

  it("throttling that never stops fails after the last retry", async () => {
    const partner = await pipeline.partner();
    fake.inject({ operation: "GetAccountAuthorizationDetails", kind: "throttle", times: 1000 });
    try {
      const { execution } = await analyse(partner);
      expect(execution).toMatchObject({
        status: "failed",
        failureCode: "THROTTLED",
        attempts: pipeline.settings.queue.retryLimit + 1,
      });
    } finally {
      fake.clearFaults();
    }
    expect(delivered(partner.customerId)).toEqual([]);
  });
});
