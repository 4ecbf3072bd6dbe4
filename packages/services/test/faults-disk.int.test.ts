import { createWriteStream, existsSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { smallAccount } from "@sightline/aws-fake";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { disk, folderPartner } from "./support/fault-disk.ts";
import { checkInvariants, type InboxView } from "./support/invariants.ts";
import { startPipeline } from "./support/pipeline.ts";

// The worker's disk failing: full while the reports are written or while the local inbox takes
// them (through the writers' file seam: CI has no /dev/full and no tmpfs to fill), and the work
// directory removed under a running analysis. Each ends as a retry that succeeds or DISK_FULL
// naming the folder, and leaves no partial file behind.
const pipeline = await startPipeline();
afterAll(() => pipeline.close());
const { ctx, fake, settings } = pipeline;
afterEach(() => {
  settings.analysis.files = undefined;
});

async function analyse(
  partner: { partnerId: string; partnerCustomerId: string },
  inbox: InboxView,
) {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
  });
  const report = await checkInvariants({
    db: ctx.db,
    executionIds: [executionId],
    inbox,
    workDir: settings.analysis.workDir,
    endWithinSeconds: 60,
  });
  expect(report.violations).toEqual([]);
  return pipeline.finished(executionId);
}

const s3: InboxView = { kind: "s3", fake, bucket: smallAccount.INBOX_BUCKET };
const folder: InboxView = { kind: "folder", dir: settings.analysis.inboxDir };
const inWorkDir = (file: string) => file.startsWith(settings.analysis.workDir);

describe("the worker's disk failing", () => {
  it("full while the reports are written: DISK_FULL naming the work directory, after the retries", async () => {
    settings.analysis.files = disk(inWorkDir);
    const execution = await analyse(await pipeline.partner(), s3);
    expect(execution).toMatchObject({
      status: "failed",
      failureCode: "DISK_FULL",
      attempts: settings.queue.retryLimit + 1,
    });
    expect(execution.failureMessage).toContain(settings.analysis.workDir);
  });

  it("full for a moment while the reports are written: the retry succeeds", async () => {
    // Full for the first file written; freed once the attempt has failed.
    let full = true;
    settings.analysis.files = disk((file) => {
      if (!inWorkDir(file) || !full) return false;
      full = false;
      return true;
    });
    const execution = await analyse(await pipeline.partner(), s3);
    expect(execution).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(execution.warnings.map((w) => w.code)).toContain("DISK_FULL");
  });

  it("the local inbox full midway: the retry delivers, and no partial file is left", async () => {
    const partner = await folderPartner(pipeline);
    // A killed attempt's partial file of the latest manifest, which the next write of it removes.
    const latest = `customers/${partner.customerId}/reports/aws/${smallAccount.ACCOUNT_ID}/sightline/latest/manifest.latest.json`;
    const stale = path.join(settings.analysis.inboxDir, `${latest}.partial-99999`);
    await mkdir(path.dirname(stale), { recursive: true });
    await writeFile(stale, "half a manifest");
    // The disk fills after three objects, and is freed once the attempt has failed.
    let writes = 0;
    let full = true;
    settings.analysis.files = disk((file) => {
      if (inWorkDir(file) || !full || ++writes <= 3) return false;
      full = false;
      return true;
    });
    const execution = await analyse(partner, folder);
    expect(execution).toMatchObject({ status: "succeeded", attempts: 2 });
    const warning = execution.warnings.find((w) => w.code === "DISK_FULL");
    expect(warning?.message).toContain(`the local inbox folder ${settings.analysis.inboxDir}`);
    expect(existsSync(stale)).toBe(false);
  });

  it("the work directory removed under a running analysis: the retry succeeds", async () => {
    let removed = false;
    settings.analysis.files = {
      ...disk(() => false),
      createWriteStream: (file, options) => {
        if (!removed) {
          removed = true;
          rmSync(settings.analysis.workDir, { recursive: true, force: true });
        }
        return createWriteStream(file, options);
      },
    };
    const execution = await analyse(await pipeline.partner(), s3);
    expect(execution).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(removed).toBe(true);
  });
});
