import { smallAccount } from "@sightline/aws-fake";
import { Manifest } from "@sightline/reports";
import { afterAll, describe, expect, it } from "vitest";
import { runAnalysis } from "../src/analysis/run-analysis.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startPipeline } from "./support/pipeline.ts";

// No worker: each test runs the job itself, as pg-boss would run it again after a failure.
const pipeline = await startPipeline({ worker: false });
afterAll(() => pipeline.close());
const { ctx, fake, settings } = pipeline;
const bucket = smallAccount.INBOX_BUCKET;
const flags = { latestReportEnabled: true, hiveEnabled: true };

async function trigger(partner: { partnerId: string; partnerCustomerId: string }) {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
  });
  return executionId;
}
const run = (executionId: string) =>
  runAnalysis(ctx, settings.analysis, executionId, { final: false });

/** The manifests of a customer in the inbox, by key. */
function manifestsOf(customerId: string): Map<string, Manifest> {
  const found = new Map<string, Manifest>();
  for (const [path, object] of fake.objects) {
    const key = path.slice(bucket.length + 1);
    if (
      path.startsWith(`${bucket}/customers/${customerId}/`) &&
      /\/manifest\.[^/]+\.json$/.test(key)
    )
      found.set(key, Manifest.parse(JSON.parse(object.body.toString("utf8"))));
  }
  return found;
}

/**
 * What a reader who trusts a manifest relies on: each listed object is there with the listed
 * size and digest, and was last written before the manifest (the fake's order of writes).
 */
function expectManifestsHold(customerId: string): number {
  const manifests = manifestsOf(customerId);
  const lastWrite = new Map<string, number>();
  fake.calls.forEach((call, i) => {
    const writes = ["PutObject", "CopyObject", "CompleteMultipartUpload"];
    if (
      call.resource === bucket &&
      call.key &&
      writes.includes(call.operation) &&
      call.status === 200
    )
      lastWrite.set(call.key, i);
  });
  for (const [key, manifest] of manifests) {
    for (const listed of manifest.objects) {
      const stored = fake.objects.get(`${bucket}/${listed.key}`);
      expect(stored, `${listed.key} listed by ${key}`).toMatchObject({
        size: listed.bytes,
        sha256: listed.sha256,
      });
      expect(lastWrite.get(listed.key)).toBeLessThan(lastWrite.get(key) ?? -1);
    }
  }
  return manifests.size;
}

describe("what lands in the inbox is what was written", () => {
  it("fails a delivery whose stored body differs from what was sent, and its retry delivers", async () => {
    const partner = await pipeline.partner({ featureFlags: flags });
    const executionId = await trigger(partner);
    fake.inject({
      service: "s3",
      operation: "PutObject",
      kind: "corrupt-body",
      times: 1,
      resource: bucket,
    });
    const first = await run(executionId);
    expect(first.status).toBe("retrying");
    expect(first.status === "retrying" && first.error.code).toBe("INBOX_INTEGRITY");
    expect(manifestsOf(partner.customerId).size).toBe(0);
    const second = await run(executionId);
    expect(second.status).toBe("succeeded");
    expect(expectManifestsHold(partner.customerId)).toBe(2);
  });

  it("finishes a delivery cut off midway with its retry; no manifest ever lists a missing object", async () => {
    const partner = await pipeline.partner({ featureFlags: flags });
    const start = fake.calls.length;
    const baseline = await run(await trigger(partner));
    expect(baseline.status).toBe("succeeded");
    // The small account lists the inbox among its buckets: collection reads it (no object key).
    const collected = fake.calls
      .slice(start)
      .filter((call) => call.resource === bucket && call.key === undefined).length;
    // 11 dated objects (with the changes and the findings), 15 hive copies (k9's 4 CSV and 4
    // Parquet, Sightline's 7), the dated manifest, then the latest manifest withdrawn, 11 latest
    // copies and their manifest: cut in the dated set, just after the dated manifest, and among
    // the latest copies.
    expect(baseline.status === "succeeded" && baseline.reportKeys.length).toBe(39);
    for (const objects of [3, 27, 31]) {
      const executionId = await trigger(partner);
      const after = collected + objects;
      fake.inject({ service: "s3", operation: "*", kind: "server-error", resource: bucket, after });
      const cut = await run(executionId);
      expect(cut.status, `cut after ${after}`).toBe("retrying");
      expectManifestsHold(partner.customerId);
      fake.clearFaults();
      const retried = await run(executionId);
      expect(retried.status).toBe("succeeded");
      if (retried.status !== "succeeded") continue;
      expect(retried.reportKeys).not.toHaveLength(0);
      for (const key of retried.reportKeys) expect(fake.objects.has(`${bucket}/${key}`)).toBe(true);
      expectManifestsHold(partner.customerId);
    }
    // Four executions, four dated manifests (no two executions share a dated key), one latest.
    expect(manifestsOf(partner.customerId).size).toBe(5);
  });

  it("delivers to an unproven destination only where the operator allows it, with a warning", async () => {
    const partner = await pipeline.partner({ proven: false });
    const refused = await run(await trigger(partner));
    expect(refused).toMatchObject({ status: "failed", failure: { code: "INBOX_UNPROVEN" } });
    expect(manifestsOf(partner.customerId).size).toBe(0);
    settings.analysis.allowUnprovenDestinations = true;
    try {
      const executionId = await trigger(partner);
      expect((await run(executionId)).status).toBe("succeeded");
      const [manifest] = manifestsOf(partner.customerId).values();
      expect(manifest?.warnings.map((w) => w.code)).toContain("unproven-destination");
    } finally {
      settings.analysis.allowUnprovenDestinations = false;
    }
  });
});
