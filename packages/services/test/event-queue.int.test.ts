import { smallAccount } from "@sightline/aws-fake";
import { getEventSource, listAppliedEventIds, listExecutions } from "@sightline/db";
import { afterAll, describe, expect, it } from "vitest";
import { rotateEventToken } from "../src/events/event-sources.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { waitFor } from "./support/alerts.ts";
import { startPipeline } from "./support/pipeline.ts";

const ACCOUNT = smallAccount.ACCOUNT_ID;
const pipeline = await startPipeline({
  model: structuredClone(smallAccount.model),
  eventQueue: "sightline-events",
});
afterAll(() => pipeline.close());
const { ctx, fake, settings } = pipeline;

describe("events from a central SQS queue (SIGHTLINE_EVENTS_SQS_URL)", () => {
  it("reach every tenant that switched events on for the account, and the message goes once recorded", async () => {
    const tenants = [await pipeline.partner(), await pipeline.partner()];
    for (const partner of tenants) {
      const owner = { kind: "partner" as const, ...partner };
      const { executionId } = await triggerAnalysis(ctx, {
        owner,
        accountId: ACCOUNT,
        kind: "ondemand",
      });
      expect((await pipeline.finished(executionId)).status).toBe("succeeded");
      await rotateEventToken(ctx, owner, ACCOUNT, "https://sightline.example");
    }
    fake.control.setEventDestination({ queueUrl: settings.eventQueueUrl ?? "" });
    const event = fake.control.makeAdmin("bob");
    for (const partner of tenants) {
      const key = { customerId: partner.customerId, accountId: ACCOUNT };
      const step = await waitFor(
        async () => {
          const [latest] = await listExecutions(ctx.db, key, 1);
          return latest?.kind === "event" && latest.status === "succeeded" ? latest : undefined;
        },
        `${partner.customerId}'s event step`,
        60_000,
      );
      expect(await listAppliedEventIds(ctx.db, step.executionId)).toEqual([event.detail.eventID]);
      expect((await getEventSource(ctx.db, key))?.eventsApplied).toBe(1);
    }
    const deletes = fake.calls.filter((c) => c.operation === "DeleteMessage");
    expect(deletes).toHaveLength(1);
  }, 120_000);
});
