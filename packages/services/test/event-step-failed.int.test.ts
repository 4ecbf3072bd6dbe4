import { smallAccount } from "@sightline/aws-fake";
import { listExecutions } from "@sightline/db";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "./support/alerts.ts";
import { eventAccount } from "./support/event-account.ts";
import { startPipeline } from "./support/pipeline.ts";

const ACCOUNT = smallAccount.ACCOUNT_ID;
const PAUSE_SECONDS = 3;
const pipeline = await startPipeline({
  model: structuredClone(smallAccount.model),
  events: { failedStepPauseSeconds: PAUSE_SECONDS },
});
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;

describe("an event step that failed", async () => {
  const { key, post } = await eventAccount(pipeline, ACCOUNT);
  const steps = async () =>
    (await listExecutions(ctx.db, key, 100)).filter((e) => e.kind === "event").reverse();

  // The customer deleted the auditor role: every AssumeRole is refused until it is back.
  fake.inject({ operation: "AssumeRole", kind: "access-denied" });
  const event = fake.control.makeAdmin("bob");
  expect((await post(event)).status).toBe("accepted");
  const failed = await waitFor(
    async () => (await steps()).find((e) => e.status === "failed"),
    "the event step to fail",
    60_000,
  );
  // The role is back: the events are tried again once the pause is over.
  fake.clearFaults();
  const succeeded = await waitFor(
    async () => (await steps()).find((e) => e.status === "succeeded"),
    "an event step to succeed",
    60_000,
  );
  const all = await steps();

  it("fails, saying why", () => {
    expect(failed.failureCode).toBe("ASSUME_ROLE_DENIED");
  });

  it("is not tried again at once: the next step waits out the pause", () => {
    // Without the pause a step failed every half second (the lane's polling) until the role
    // was back, each a failed execution.
    expect(all.map((e) => e.status)).toEqual(["failed", "succeeded"]);
    const waited = (succeeded.createdAt?.getTime() ?? 0) - (failed.finishedAt?.getTime() ?? 0);
    expect(waited).toBeGreaterThanOrEqual(PAUSE_SECONDS * 1000 - 50);
  });

  it("applies the events once the pause is over", async () => {
    expect(succeeded.warnings.map((w) => w.code)).not.toContain("event-whole-analysis");
    const [latest] = await listExecutions(ctx.db, key, 1);
    expect(latest?.executionId).toBe(succeeded.executionId);
  });
});
