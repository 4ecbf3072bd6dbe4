import { smallAccount } from "@sightline/aws-fake";
import { getExecution, getExecutionCredential, getSnapshotOfExecution } from "@sightline/db";
import { afterAll, expect, it } from "vitest";
import { runAnalysis } from "../src/analysis/run-analysis.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { ownCredential } from "./support/own-credential.ts";
import { startPipeline } from "./support/pipeline.ts";

// No worker: the test runs each attempt itself, so it can look between two attempts.
const pipeline = await startPipeline({ worker: false });
afterAll(() => pipeline.close());
const { ctx, fake, settings } = pipeline;

it("deletes an own credential once the collection is stored, before the execution ends", async () => {
  const partner = await pipeline.partner();
  const credential = ownCredential(fake, smallAccount.ACCOUNT_ID, new Date(Date.now() + 3_600_000));
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: smallAccount.ACCOUNT_ID,
    kind: "ondemand",
    credential,
  });
  expect(await getExecutionCredential(ctx.db, executionId)).toBeDefined();

  // The inbox fails past the SDK's retries: the attempt ends after collection, to run again.
  fake.inject({
    service: "s3",
    operation: "PutObject",
    resource: smallAccount.INBOX_BUCKET,
    kind: "server-error",
    times: 1000,
  });
  try {
    const first = await runAnalysis(ctx, settings.analysis, executionId, { final: false });
    expect(first.status).toBe("retrying");
  } finally {
    fake.clearFaults();
  }
  expect(await getExecution(ctx.db, executionId)).toMatchObject({ status: "queued" });
  expect(await getSnapshotOfExecution(ctx.db, executionId)).toBeDefined();
  expect(await getExecutionCredential(ctx.db, executionId)).toBeUndefined();

  // The next attempt needs no credential: it reuses the stored collection.
  const second = await runAnalysis(ctx, settings.analysis, executionId, { final: true });
  expect(second.status).toBe("succeeded");
});
