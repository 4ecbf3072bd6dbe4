import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type StoredObject, smallAccount } from "@sightline/aws-fake";
import { rawQuery } from "@sightline/db";
import { Manifest } from "@sightline/reports";
import { afterAll, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { checkInvariants, type InvariantScope } from "./support/invariants.ts";
import { startPipeline } from "./support/pipeline.ts";

// The fault suite's checker must be able to fail: one clean analysis passes it, and each way of
// breaking an invariant after it is named.
const pipeline = await startPipeline();
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;
const bucket = smallAccount.INBOX_BUCKET;
const partner = await pipeline.partner({
  featureFlags: { latestReportEnabled: true, hiveEnabled: true },
});
const { executionId } = await triggerAnalysis(ctx, {
  owner: { kind: "partner", ...partner },
  accountId: smallAccount.ACCOUNT_ID,
  kind: "ondemand",
});
const execution = await pipeline.finished(executionId);
const scope: InvariantScope = {
  db: ctx.db,
  executionIds: [executionId],
  inbox: { kind: "s3", fake, bucket },
  workDir: pipeline.settings.analysis.workDir,
  endWithinSeconds: 5,
};
const violations = async (changes: Partial<InvariantScope> = {}) =>
  (await checkInvariants({ ...scope, ...changes })).violations;
const objects = fake.objects as Map<string, StoredObject>;
const datedManifestKey = execution.reportKeys.find((k) => /manifest\.\d{4}-.*\.json$/.test(k));
const manifest = Manifest.parse(
  JSON.parse(objects.get(`${bucket}/${datedManifestKey}`)?.body.toString("utf8") ?? "null"),
);
const listed = manifest.objects[0]?.key as string;

/** Breaks something for the length of `check`, then puts it back. */
async function whileBroken(
  broken: () => unknown,
  restore: () => unknown,
  check: () => Promise<void>,
) {
  await broken();
  try {
    await check();
  } finally {
    await restore();
  }
}

describe("the invariant checker", () => {
  it("passes a clean analysis", async () => {
    expect(execution.status).toBe("succeeded");
    expect(await violations()).toEqual([]);
  });

  it("names an execution that has not ended, and one that does not exist", async () => {
    const run = (status: string) =>
      ctx.db.execute(
        rawQuery("update executions set status = $2 where execution_id = $1", [
          executionId,
          status,
        ]),
      );
    await whileBroken(
      () => run("running"),
      () => run("succeeded"),
      async () =>
        expect(await violations({ endWithinSeconds: 0.2 })).toContainEqual(
          expect.stringMatching(/^1: execution .* still running/),
        ),
    );
    const missing = { executionIds: [executionId, "no-such-execution"], endWithinSeconds: 0.2 };
    expect(await violations(missing)).toContainEqual(
      "1: execution no-such-execution does not exist",
    );
  });

  it("names a listed object that is missing or not what its manifest says, and one no manifest lists", async () => {
    const stored = objects.get(`${bucket}/${listed}`) as StoredObject;
    await whileBroken(
      () => void objects.delete(`${bucket}/${listed}`),
      () => void objects.set(`${bucket}/${listed}`, stored),
      async () =>
        expect(await violations()).toContainEqual(expect.stringMatching(/^2: .* is missing$/)),
    );
    await whileBroken(
      () => fake.putObjectAsOwner(bucket, listed, "other bytes"),
      () => void objects.set(`${bucket}/${listed}`, stored),
      async () =>
        expect(await violations()).toContainEqual(expect.stringMatching(/^3: .*another digest/)),
    );
    const stray = listed.replace(/\/([^/.]+)\./, "/stray.");
    await whileBroken(
      () => fake.putObjectAsOwner(bucket, stray, "from another attempt"),
      () => void objects.delete(`${bucket}/${stray}`),
      async () =>
        expect(await violations()).toContainEqual(
          expect.stringMatching(/^3: .*stray.* its manifest does not list it/),
        ),
    );
  });

  it("names results stored partly", async () => {
    const [row] = await ctx.db.execute(
      rawQuery("select principal_arn as arn from analysis_principals where execution_id = $1", [
        executionId,
      ]),
    );
    await whileBroken(
      () =>
        ctx.db.execute(
          rawQuery(
            "update analysis_results set principals = principals + 1 where execution_id = $1",
            [executionId],
          ),
        ),
      () =>
        ctx.db.execute(
          rawQuery(
            "update analysis_results set principals = principals - 1 where execution_id = $1",
            [executionId],
          ),
        ),
      async () =>
        expect(await violations()).toContainEqual(
          expect.stringMatching(/^3: .*results are stored partly or more than once/),
        ),
    );
    expect(row?.arn).toBeTruthy();
  });

  it("names one change sent as two alerts", async () => {
    const change = { changeId: "c1" };
    const receivers = [
      {
        received: [
          { body: JSON.stringify({ alertId: "a1", changes: [change] }) },
          { body: JSON.stringify({ alertId: "a1", changes: [change] }) },
        ],
      },
    ];
    expect(await violations({ receivers })).toEqual([]);
    receivers[0]?.received.push({ body: JSON.stringify({ alertId: "a2", changes: [change] }) });
    expect(await violations({ receivers })).toContainEqual(
      "3: change c1 reached a receiver as 2 alerts",
    );
  });

  it("names the work files, the partial inbox files and the incomplete uploads an ended execution left", async () => {
    const workFiles = path.join(scope.workDir, executionId, "1");
    await whileBroken(
      async () => {
        await mkdir(workFiles, { recursive: true });
        await writeFile(path.join(workFiles, "principals.csv"), "left over");
      },
      () => rm(path.join(scope.workDir, executionId), { recursive: true, force: true }),
      async () =>
        expect(await violations()).toContainEqual(
          `4: the work files of ended execution ${executionId} remain`,
        ),
    );
    // A killed delivery's incomplete multipart upload, under the customer's prefix.
    const uploads = fake.uploads as Map<string, { bucket: string; key: string }>;
    const uploadKey = `customers/${partner.customerId}/reports/big.csv`;
    await whileBroken(
      () => void uploads.set("upload-left", { bucket, key: uploadKey }),
      () => void uploads.delete("upload-left"),
      async () =>
        expect(await violations()).toContainEqual(
          `4: an incomplete multipart upload is left in the inbox: ${uploadKey}`,
        ),
    );
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-inbox-"));
    const partial = `customers/${partner.customerId}/reports/x.csv.partial-1234`;
    await mkdir(path.dirname(path.join(dir, partial)), { recursive: true });
    await writeFile(path.join(dir, partial), "half");
    try {
      expect(await violations({ inbox: { kind: "folder", dir } })).toContainEqual(
        `4: a temporary file of a write is left in the inbox: ${partial}`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
