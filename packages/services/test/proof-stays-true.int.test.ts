import { smallAccount } from "@sightline/aws-fake";
import { listAuditEvents } from "@sightline/db";
import { afterAll, expect, it } from "vitest";
import { runAnalysis } from "../src/analysis/run-analysis.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startPipeline } from "./support/pipeline.ts";

// A fake of its own: the bucket is deleted and registered again by another account.
const pipeline = await startPipeline({ worker: false });
afterAll(() => pipeline.close());
const { ctx, fake, settings } = pipeline;
const bucket = smallAccount.INBOX_BUCKET;
const WRITES = [
  "PutObject",
  "CopyObject",
  "CreateMultipartUpload",
  "UploadPart",
  "CompleteMultipartUpload",
  "DeleteObject",
];

async function analyse(partner: { partnerId: string; partnerCustomerId: string }) {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
  });
  return runAnalysis(ctx, settings.analysis, executionId, { final: false });
}

it("a proven bucket deleted and re-created in another account gets no write, and the execution says why", async () => {
  const partner = await pipeline.partner();
  const before = fake.calls.length;
  expect((await analyse(partner)).status).toBe("succeeded");
  // The same filter sees the first run's deliveries.
  expect(
    fake.calls.slice(before).filter((c) => c.resource === bucket && WRITES.includes(c.operation))
      .length,
  ).toBeGreaterThan(0);

  fake.recreateBucket(bucket, "444455556666");
  const from = fake.calls.length;
  const refused = await analyse(partner);
  expect(refused).toMatchObject({
    status: "failed",
    failure: {
      code: "INBOX_UNPROVEN",
      message: expect.stringMatching(/no longer holds.*registered by another AWS account/),
    },
  });
  const writes = fake.calls
    .slice(from)
    .filter((c) => c.resource === bucket && WRITES.includes(c.operation));
  expect(writes).toEqual([]);

  // Proven once more only by a new proof: a second run is refused the same way, still no write.
  const again = await analyse(partner);
  expect(again).toMatchObject({ status: "failed", failure: { code: "INBOX_UNPROVEN" } });
  expect(
    fake.calls.slice(from).filter((c) => c.resource === bucket && WRITES.includes(c.operation)),
  ).toEqual([]);

  const trail = await listAuditEvents(ctx.db, { tenant: partner.partnerId, limit: 10 });
  expect(trail.map((e) => e.action)).toEqual(["delivery.proof-lost", "delivery.proven"]);
  expect(trail[0]).toMatchObject({
    actorName: "sightline",
    keyId: null,
    params: { bucketName: bucket },
  });
});
