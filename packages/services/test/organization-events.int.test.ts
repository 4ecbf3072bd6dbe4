import { smallAccount } from "@sightline/aws-fake";
import {
  latestSnapshot,
  listAccessChanges,
  listAppliedEventIds,
  listExecutions,
  rawQuery,
} from "@sightline/db";
import { afterAll, describe, expect, it } from "vitest";
import { rotateEventToken } from "../src/events/event-sources.ts";
import { eventSourceOfToken, receiveAwsEvent } from "../src/events/receive-aws-event.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { waitFor } from "./support/alerts.ts";
import { monitorWithSnapshot } from "./support/organization-snapshots.ts";
import { startPipeline } from "./support/pipeline.ts";

/** The small account is a member of o-abc123, whose management account is this one. */
const MEMBER = smallAccount.ACCOUNT_ID;
const MANAGEMENT = "111111111111";
const OTHER_ORGANIZATION = "333333333333";
const NOT_KEPT = "444444444444";

const pipeline = await startPipeline({ model: structuredClone(smallAccount.model) });
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;

type Partner = Awaited<ReturnType<typeof pipeline.partner>>;

async function analysed(partner: Partner) {
  const { executionId } = await triggerAnalysis(ctx, {
    owner: { kind: "partner", ...partner },
    accountId: MEMBER,
    kind: "ondemand",
  });
  expect((await pipeline.finished(executionId)).status).toBe("succeeded");
}

/** Which accounts of a customer recorded an event. */
async function accountsWithEvent(customerId: string, eventId: string): Promise<string[]> {
  const rows = await ctx.db.execute(
    rawQuery(
      "select account_id from account_events where customer_id = $1 and event_id = $2 order by account_id",
      [customerId, eventId],
    ),
  );
  return (rows as unknown as { account_id: string }[]).map((row) => row.account_id);
}

describe("an SCP event of the management account", async () => {
  // Customer A monitors the organisation's management account and a member (the fake's account),
  // an account of another organisation and one whose organisation was not kept yet; customer B
  // (another partner) monitors the same member, in the same organisation.
  const a = await pipeline.partner();
  const b = await pipeline.partner();
  await analysed(a);
  await analysed(b);
  await monitorWithSnapshot(ctx.db, a, MANAGEMENT, "o-abc123");
  await monitorWithSnapshot(ctx.db, a, OTHER_ORGANIZATION, "o-other");
  await monitorWithSnapshot(ctx.db, a, NOT_KEPT, null);
  const { token } = await rotateEventToken(
    ctx,
    { kind: "partner", ...a },
    MANAGEMENT,
    "https://sightline.example",
  );
  const source = await eventSourceOfToken(ctx, token);
  // The guardrails SCP of the member's OU now denies S3.
  const scp = fake.control.changeOrganizationPolicy("p-guardrails", {
    document: {
      Version: "2012-10-17",
      Statement: [{ Effect: "Deny", Action: "s3:*", Resource: "*" }],
    },
  });
  const answer = await receiveAwsEvent(ctx, source, scp, { quietSeconds: 0.5 });
  const eventId = scp.detail.eventID;
  const memberOfA = { customerId: a.customerId, accountId: MEMBER };
  const step = await waitFor(
    async () =>
      (await listExecutions(ctx.db, memberOfA, 10)).find(
        (e) => e.kind === "event" && ["succeeded", "failed"].includes(e.status),
      ),
    "the member's event step",
    60_000,
  );

  it("keeps each snapshot's organisation", async () => {
    expect((await latestSnapshot(ctx.db, memberOfA))?.organizationId).toBe("o-abc123");
  });

  it("re-analyses the customer's accounts in the organisation, in an event step, with the SCP as cause", async () => {
    expect(answer.status).toBe("accepted");
    expect(step.status, step.failureMessage ?? "").toBe("succeeded");
    expect(await listAppliedEventIds(ctx.db, step.executionId)).toEqual([eventId]);
    const changes = (
      await listAccessChanges(ctx.db, { ...memberOfA, limit: 10_000 })
    ).changes.filter((c) => c.executionId === step.executionId);
    expect(changes.map((c) => c.change.kind)).toContain("access-lost");
    for (const change of changes)
      expect(change.cause).toEqual({ kind: "organization", eventIds: [eventId] });
  });

  it("reaches the customer's members only: not another organisation's account, not another customer's", async () => {
    // The management account's own, the member's, and the account whose organisation is unknown.
    expect(await accountsWithEvent(a.customerId, eventId)).toEqual(
      [MANAGEMENT, MEMBER, NOT_KEPT].sort(),
    );
    expect(await accountsWithEvent(b.customerId, eventId)).toEqual([]);
    const memberOfB = { customerId: b.customerId, accountId: MEMBER };
    expect((await listExecutions(ctx.db, memberOfB, 10)).map((e) => e.kind)).not.toContain("event");
  });

  it("fans out once: the same event again is a duplicate that reaches nobody new", async () => {
    expect((await receiveAwsEvent(ctx, source, scp, { quietSeconds: 0.5 })).status).toBe(
      "duplicate",
    );
    expect(await accountsWithEvent(a.customerId, eventId)).toEqual(
      [MANAGEMENT, MEMBER, NOT_KEPT].sort(),
    );
  });
});
