import { smallAccount } from "@sightline/aws-fake";
import { listAppliedEventIds, listExecutions, pendingEventWindow } from "@sightline/db";
import { type AccessChange, AlertDestinationsBody, AppError } from "@sightline/domain";
import { afterAll, describe, expect, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { verifyAlertSignature } from "../src/alerts/webhook-signature.ts";
import { removeEventSource } from "../src/events/event-sources.ts";
import { eventSourceOfToken } from "../src/events/receive-aws-event.ts";
import { eventStepEnded, startReceiver, waitFor } from "./support/alerts.ts";
import { eventAccount } from "./support/event-account.ts";
import { startPipeline } from "./support/pipeline.ts";

const ACCOUNT = smallAccount.ACCOUNT_ID;
const OUTSIDE = "444455556666";
const receiver = await startReceiver();
const pipeline = await startPipeline({
  model: structuredClone(smallAccount.model),
  alerts: {
    allowedHosts: [{ host: "127.0.0.1", port: receiver.port }],
    caCertificates: [receiver.cert],
  },
});
afterAll(() => pipeline.close());
const { ctx, fake } = pipeline;

describe("an account's CloudTrail events, applied as they arrive", async () => {
  const { partner, owner, key, token, post, storedChanges } = await eventAccount(pipeline, ACCOUNT);
  const { destinations } = await putAlertDestinations(
    ctx,
    { kind: "partner", partnerId: partner.partnerId },
    AlertDestinationsBody.parse({
      destinations: [{ name: "soc", kind: "webhook", url: receiver.url }],
    }),
  );
  const secret = destinations[0]?.secret ?? "";

  // bob becomes an administrator; the `logs` bucket opens to another account.
  const callsBefore = fake.calls.length;
  const madeAdmin = fake.control.makeAdmin("bob");
  const opened = fake.control.setBucketPolicy("logs", {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${OUTSIDE}:root` },
        Action: "s3:GetObject",
        Resource: "arn:aws:s3:::logs/*",
      },
    ],
  });
  const answers = [await post(madeAdmin), await post(opened)];
  const step = await eventStepEnded(ctx.db, key, 60_000);
  const calls = fake.calls.slice(callsBefore);
  const changes = await storedChanges(step.executionId);
  const alert = await waitFor(
    async () => receiver.received.find((r) => r.body.includes(step.executionId)),
    "the step's alert",
    60_000,
  );

  it("accepts each event at once and applies both in one step", async () => {
    expect(answers.map((a) => a.status)).toEqual(["accepted", "accepted"]);
    expect(step.status, step.failureMessage ?? "").toBe("succeeded");
    expect(await listAppliedEventIds(ctx.db, step.executionId)).toEqual([
      madeAdmin.detail.eventID,
      opened.detail.eventID,
    ]);
  });

  it("reads back only what the events name: no full collection", () => {
    const operations = new Set(calls.map((c) => c.operation));
    for (const full of [
      "GetAccountAuthorizationDetails",
      "GenerateCredentialReport",
      "ListBuckets",
    ])
      expect(operations.has(full), full).toBe(false);
    expect(operations.has("GetUser")).toBe(true);
    expect(operations.has("GetBucketPolicy")).toBe(true);
  });

  it("analyses only what the events reach: no whole analysis", () => {
    expect(step.warnings.map((w) => w.code)).not.toContain("event-whole-analysis");
    expect(step.warnings.map((w) => w.code)).not.toContain("event-full-collection");
  });

  it("stores the changes: bob an IAM admin, the bucket reached from outside", () => {
    const found = changes.map((c) => c.change as unknown as AccessChange);
    expect(
      found.some((c) => c.kind === "iam-admin-gained" && c.principalArn.endsWith(":user/bob")),
    ).toBe(true);
    expect(
      found.some((c) => c.kind === "external-access-gained" && c.resourceArn.includes("logs")),
    ).toBe(true);
  });

  it("names each change's cause: the event whose target explains it", () => {
    const bob = `arn:aws:iam::${ACCOUNT}:user/bob`;
    const ofBob = changes.filter((c) => (c.change as unknown as AccessChange).principalArn === bob);
    expect(ofBob.length).toBeGreaterThan(1);
    // bob's admin and every capability it brought: one cause, the AttachUserPolicy event.
    for (const { cause } of ofBob)
      expect(cause).toEqual({
        kind: "iam-admin",
        principalArn: bob,
        policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
        eventIds: [madeAdmin.detail.eventID],
      });
    const outside = changes.filter(
      (c) => (c.change as unknown as AccessChange).kind === "external-access-gained",
    );
    expect(outside).not.toHaveLength(0);
    for (const { cause } of outside)
      expect(cause).toEqual({
        kind: "resource-policy",
        resourceArn: "arn:aws:s3:::logs",
        eventIds: [opened.detail.eventID],
      });
  });

  it("alerts the webhook, signed, with the same change IDs", () => {
    expect(verifyAlertSignature(secret, alert.headers, alert.body)).toBe(true);
    const sent = (JSON.parse(alert.body) as { changes: AccessChange[] }).changes.map(
      (c) => c.changeId,
    );
    expect(sent.length).toBeGreaterThan(0);
    const stored = new Set(changes.map((c) => (c.change as unknown as AccessChange).changeId));
    for (const id of sent) expect(stored.has(id)).toBe(true);
  });

  it("takes a replayed event as a duplicate, and refuses another account's event or a wrong token, changing nothing", async () => {
    const executions = (await listExecutions(ctx.db, key, 50)).length;
    expect((await post(madeAdmin)).status).toBe("duplicate");
    const foreign = { ...madeAdmin, account: OUTSIDE };
    await expect(post(foreign)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(eventSourceOfToken(ctx, `${token}x`)).rejects.toBeInstanceOf(AppError);
    await expect(post({ ...madeAdmin, "detail-type": "Object Created" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    expect((await listExecutions(ctx.db, key, 50)).length).toBe(executions);
  });

  it("switched off, drops the pending events and keeps which events each step applied", async () => {
    // An event that waits a minute for quiet: still pending when the source is switched off.
    const later = fake.control.putInlinePolicy("user", "alice", "queues", {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "sqs:*", Resource: "*" }],
    });
    expect((await post(later, 60)).status).toBe("accepted");
    expect((await pendingEventWindow(ctx.db, key)).count).toBe(1);
    await removeEventSource(ctx, owner, ACCOUNT);
    expect((await pendingEventWindow(ctx.db, key)).count).toBe(0);
    await expect(eventSourceOfToken(ctx, token)).rejects.toBeInstanceOf(AppError);
    expect(await listAppliedEventIds(ctx.db, step.executionId)).toEqual([
      madeAdmin.detail.eventID,
      opened.detail.eventID,
    ]);
  });
});
