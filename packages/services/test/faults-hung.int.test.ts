import { smallAccount } from "@sightline/aws-fake";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LEASE_SETTINGS } from "../src/queue/lease-keeper.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { checkInvariants } from "./support/invariants.ts";
import { startPipeline } from "./support/pipeline.ts";

// A job that keeps renewing its lease but never ends (hung but alive): its worker ends it after
// the kind's maximum run time, failed with RUN_TIME_EXCEEDED and not run again; the invariants
// hold, and the worker takes the next job.
const MAX_RUN_SECONDS = 4;
const pipeline = await startPipeline({
  queue: {
    lease: {
      ...DEFAULT_LEASE_SETTINGS,
      renewSeconds: 0.5,
      lostAfterSeconds: 4,
      maxRunSeconds: { ...DEFAULT_LEASE_SETTINGS.maxRunSeconds, analysis: MAX_RUN_SECONDS },
    },
  },
});
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;
const partner = await pipeline.partner();

async function analyse() {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
  });
  const report = await checkInvariants({
    db: ctx.db,
    executionIds: [executionId],
    inbox: { kind: "s3", fake, bucket: smallAccount.INBOX_BUCKET },
    workDir: pipeline.settings.analysis.workDir,
    endWithinSeconds: 60,
  });
  expect(report.violations).toEqual([]);
  return pipeline.finished(executionId);
}

describe("a job hung but alive", () => {
  it("is ended after its maximum run time with RUN_TIME_EXCEEDED, once; the next job runs", async () => {
    // The collection waits on an IAM call that does not answer for ten minutes; the worker
    // itself is well and renews the lease all along.
    fake.inject({
      operation: "GetAccountAuthorizationDetails",
      kind: "delay",
      delayMs: 600_000,
      times: 1,
    });
    const hung = await analyse();
    expect(hung).toMatchObject({ status: "failed", failureCode: "RUN_TIME_EXCEEDED", attempts: 1 });
    expect(hung.failureMessage).toContain(`more than ${MAX_RUN_SECONDS} s`);
    // Its lease was never lost: it was ended for its time, not taken back from a dead worker.
    expect(hung.warnings.map((w) => w.code)).not.toContain("WORKER_LOST");
    // Ended for its time: not before it (counted from its trigger, since its attempt's start is
    // not recorded before the pipeline has loaded), and not long after.
    const ranFor = (hung.finishedAt?.getTime() ?? 0) - hung.createdAt.getTime();
    expect(ranFor).toBeGreaterThanOrEqual(MAX_RUN_SECONDS * 1000);
    expect(ranFor).toBeLessThan((MAX_RUN_SECONDS + 30) * 1000);

    // The worker's slot is free again: the next analysis runs and succeeds.
    const next = await analyse();
    expect(next.status).toBe("succeeded");
  }, 180_000);
});
