import { smallAccount } from "@sightline/aws-fake";
import {
  type AccessChange,
  awsEventRulePattern,
  ChangeList,
  EventSourceStatus,
  ExecutionRecord,
  RotatedEventSource,
} from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { startE2e } from "./e2e-pipeline.ts";

const { h, fake, configure, triggerAndWait } = await startE2e(structuredClone(smallAccount.model));

const TOKEN_HEADER = "x-sightline-event-token";

describe("an account's events through the API", async () => {
  const p = await configure(false);
  await triggerAndWait(p);
  const rotated = await h.call("POST", `${p.base}/event-source/rotate`, { key: p.key });
  const { token, endpoint } = RotatedEventSource.parse(rotated.json);
  const postEvent = (body: unknown, headers: Record<string, string> = { [TOKEN_HEADER]: token }) =>
    h.call("POST", "/events/aws", { body, headers });
  // bob becomes an administrator: the event the account's EventBridge rule would post.
  const madeAdmin = fake.control.makeAdmin("bob");
  const eventSteps = async () => {
    const list = await h.call("GET", `${p.base}/executions`, { key: p.key });
    return ExecutionRecord.array()
      .parse(list.json)
      .filter((e) => e.kind === "event");
  };

  it("rotate answers 201 with the token once, the endpoint and the rule's pattern; GET never shows the token", async () => {
    expect(rotated.status).toBe(201);
    expect(token).toMatch(/^slev_[\w-]{40,}$/);
    expect(endpoint).toMatch(/\/events\/aws$/);
    expect(rotated.json.ruleEventPattern).toEqual(awsEventRulePattern());
    const read = await h.call("GET", `${p.base}/event-source`, { key: p.key });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.json)).not.toContain(token);
    expect(EventSourceStatus.parse(read.json).eventsReceived).toBe(0);
  });

  it("refuses a wrong token (401), another account's event (403), a bad body (400) and an oversized one (413), changing nothing", async () => {
    expect((await postEvent(madeAdmin, { [TOKEN_HEADER]: `${token}x` })).status).toBe(401);
    expect((await postEvent(madeAdmin, {})).status).toBe(401);
    const foreign = await postEvent({ ...madeAdmin, account: "111122223333" });
    expect(foreign.status).toBe(403);
    expect(String(foreign.json.message)).toContain("111122223333");
    const bad = await postEvent({ ...madeAdmin, detail: { eventName: 7 } });
    expect(bad.status).toBe(400);
    const huge = await postEvent({ ...madeAdmin, padding: "x".repeat(300 * 1024) });
    expect(huge.status).toBe(413);
    const status = EventSourceStatus.parse(
      (await h.call("GET", `${p.base}/event-source`, { key: p.key })).json,
    );
    expect(status.eventsReceived).toBe(0);
    expect(status.eventsRefused).toBe(3);
    expect(await eventSteps()).toEqual([]);
  });

  it("accepts bob's becoming an admin, applies it in an event step, and lists the change", async () => {
    const accepted = await postEvent(madeAdmin);
    expect(accepted.status).toBe(202);
    expect(accepted.json).toMatchObject({ eventId: madeAdmin.detail.eventID, status: "accepted" });
    const replayed = await postEvent(madeAdmin);
    expect(replayed.json).toMatchObject({ status: "duplicate" });
    const deadline = Date.now() + 60_000;
    let step: ExecutionRecord | undefined;
    while (!step && Date.now() < deadline) {
      step = (await eventSteps()).find((e) => e.status === "succeeded");
      if (!step) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(step?.events).toEqual([madeAdmin.detail.eventID]);
    const changes = await h.call("GET", `${p.base}/changes?limit=1000`, { key: p.key });
    const found = (changes.json.changes as (AccessChange & { executionId: string })[]).filter(
      (c) => c.executionId === step?.executionId,
    );
    expect(found.some((c) => c.kind === "iam-admin-gained" && c.principalName === "bob")).toBe(
      true,
    );
    // Each of bob's changes names its cause: his admin policy, and the event that attached it.
    const ofBob = ChangeList.parse(changes.json).changes.filter(
      (c) => c.executionId === step?.executionId && c.principalName === "bob",
    );
    expect(ofBob.length).toBeGreaterThan(1);
    for (const change of ofBob)
      expect(change.cause).toEqual({
        kind: "iam-admin",
        principalArn: `arn:aws:iam::${smallAccount.ACCOUNT_ID}:user/bob`,
        policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
        eventIds: [madeAdmin.detail.eventID],
      });
  });

  it("DELETE switches events off: the token stops at once", async () => {
    const deleted = await h.call("DELETE", `${p.base}/event-source`, { key: p.key });
    expect(deleted.status).toBe(204);
    expect((await postEvent(madeAdmin)).status).toBe(401);
    expect((await h.call("GET", `${p.base}/event-source`, { key: p.key })).status).toBe(404);
  });

  it("an account no longer monitored takes no events: its token stops with it", async () => {
    const again = await h.call("POST", `${p.base}/event-source/rotate`, { key: p.key });
    const fresh = RotatedEventSource.parse(again.json).token;
    expect((await postEvent(madeAdmin, { [TOKEN_HEADER]: fresh })).status).toBe(202);
    expect((await h.call("DELETE", p.base, { key: p.key })).status).toBe(200);
    expect((await postEvent(madeAdmin, { [TOKEN_HEADER]: fresh })).status).toBe(401);
  });
});
