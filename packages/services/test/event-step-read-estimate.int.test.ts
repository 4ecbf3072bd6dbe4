import { smallAccount } from "@sightline/aws-fake";
import type { AccessChange } from "@sightline/domain";
import { afterAll, describe, expect, it } from "vitest";
import { eventStepEnded } from "./support/alerts.ts";
import { eventAccount } from "./support/event-account.ts";
import { startPipeline } from "./support/pipeline.ts";

const ACCOUNT = smallAccount.ACCOUNT_ID;
const pipeline = await startPipeline({ model: structuredClone(smallAccount.model) });
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;

const allow = (action: string) => ({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: action, Resource: "*" }],
});

describe("an event step whose read-back would cost more AWS calls than a full collection", async () => {
  const { key, analyse, post, storedChanges } = await eventAccount(pipeline, ACCOUNT);
  // A burst (a `terraform apply`): six new users, each with an inline policy and an access key.
  // Read back one by one that is about 50 calls; the small account is collected whole in ~27.
  const users = ["u1", "u2", "u3", "u4", "u5", "u6"];
  const events = users.flatMap((user) => [
    fake.control.create("user", user),
    fake.control.putInlinePolicy("user", user, "queues", allow("sqs:*")),
    fake.control.createAccessKey(user).event,
  ]);
  const callsBefore = fake.calls.length;
  for (const event of events) expect((await post(event, 1)).status).toBe("accepted");
  const step = await eventStepEnded(ctx.db, key, 90_000);
  const operations = new Set(fake.calls.slice(callsBefore).map((call) => call.operation));
  const stepChanges = await storedChanges(step.executionId);

  it("collects the account whole, saying why with both counts", () => {
    expect(step.status, step.failureMessage ?? "").toBe("succeeded");
    const full = step.warnings.find((w) => w.code === "event-full-collection");
    expect(full?.message).toMatch(/takes about \d+ AWS calls, a full collection \d+/);
    expect(operations.has("GetAccountAuthorizationDetails")).toBe(true);
    expect(operations.has("GetUser")).toBe(false);
  });

  it("still analyses only what changed, from the stored snapshot", () => {
    expect(step.warnings.map((w) => w.code)).not.toContain("event-whole-analysis");
    const added = stepChanges
      .map((c) => c.change as unknown as AccessChange)
      .filter((c) => c.kind === "principal-added")
      .map((c) => c.principalArn.split("/").pop());
    expect(added.sort()).toEqual(users);
  });

  it("leaves nothing for the next full analysis to report", async () => {
    const next = await analyse();
    expect(next.status).toBe("succeeded");
    expect(await storedChanges(next.executionId)).toEqual([]);
  });
});
