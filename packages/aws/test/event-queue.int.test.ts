import { type FakeAws, startFakeAws } from "@sightline/aws-fake";
import { ACCOUNT_ID, model as smallAccount } from "@sightline/aws-fake/small-account";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  changeEventMessageVisibility,
  deleteEventMessage,
  receiveEventMessages,
} from "../src/events/receive-event-messages.ts";

describe("the event queue against the fake's SQS (JSON protocol)", () => {
  let fake: FakeAws;
  let queueUrl: string;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
    queueUrl = fake.createQueue("sightline-events");
  });
  afterEach(async () => {
    await fake.close();
  });
  const queue = () => ({
    queueUrl,
    credentials: fake.serviceCredentials,
    clientOptions: fake.clientOptions,
  });

  it("receives the EventBridge envelope of a change, hides it while in flight, and deletes it", async () => {
    fake.control.setEventDestination({ queueUrl });
    const event = fake.control.makeAdmin("bob");
    const { messages } = await receiveEventMessages({
      ...queue(),
      maxMessages: 10,
      waitSeconds: 0,
    });
    expect(messages).toHaveLength(1);
    const body = JSON.parse(messages[0]?.body ?? "{}");
    expect(body).toMatchObject({
      "detail-type": "AWS API Call via CloudTrail",
      source: "aws.iam",
      account: ACCOUNT_ID,
      region: "us-east-1",
      detail: {
        eventSource: "iam.amazonaws.com",
        eventName: "AttachUserPolicy",
        eventID: event.detail.eventID,
        requestParameters: {
          userName: "bob",
          policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
        },
        recipientAccountId: ACCOUNT_ID,
      },
    });
    expect(body.detail.eventID).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await receiveEventMessages({ ...queue(), maxMessages: 10, waitSeconds: 0 })).messages,
    ).toEqual([]);
    await deleteEventMessage({ ...queue(), receiptHandle: messages[0]?.receiptHandle ?? "" });
    const calls = fake.calls
      .filter((call) => call.service === "sqs")
      .map((call) => `${call.operation} ${call.status}`);
    expect(calls).toEqual(["ReceiveMessage 200", "ReceiveMessage 200", "DeleteMessage 200"]);
  });

  it("gives a message back when its visibility is changed to 0, with a new receipt handle", async () => {
    fake.sendToQueue(queueUrl, '{"id":"1"}');
    const first = await receiveEventMessages({
      ...queue(),
      maxMessages: 1,
      waitSeconds: 0,
      visibilitySeconds: 60,
    });
    const handle = first.messages[0]?.receiptHandle ?? "";
    await changeEventMessageVisibility({ ...queue(), receiptHandle: handle, visibilitySeconds: 0 });
    const again = await receiveEventMessages({ ...queue(), maxMessages: 1, waitSeconds: 0 });
    expect(again.messages.map((message) => message.body)).toEqual(['{"id":"1"}']);
    expect(again.messages[0]?.receiptHandle).not.toBe(handle);
  });

  it("long polls: a message sent while the receive waits ends the wait", async () => {
    const started = Date.now();
    const waiting = receiveEventMessages({ ...queue(), maxMessages: 1, waitSeconds: 20 });
    // Sent once the receive is waiting at the fake (its call is recorded on arrival).
    const deadline = Date.now() + 10_000;
    while (
      !fake.calls.some((call) => call.operation === "ReceiveMessage") &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    fake.sendToQueue(queueUrl, "late");
    const { messages } = await waiting;
    expect(messages.map((message) => message.body)).toEqual(["late"]);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("waits out an empty queue for the seconds asked, no longer", async () => {
    const started = Date.now();
    const { messages } = await receiveEventMessages({ ...queue(), maxMessages: 1, waitSeconds: 1 });
    expect(messages).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("fails typed: a denied receive names Sightline's own role, an unknown queue is refused", async () => {
    fake.inject({ service: "sqs", operation: "ReceiveMessage", kind: "access-denied", times: 1 });
    await expect(
      receiveEventMessages({ ...queue(), maxMessages: 1, waitSeconds: 0 }),
    ).rejects.toMatchObject({
      code: "ACCESS_DENIED",
      message: expect.stringContaining("Sightline's own role"),
    });
    const unknown = `${queueUrl}-missing`;
    await expect(
      receiveEventMessages({ ...queue(), queueUrl: unknown, maxMessages: 1, waitSeconds: 0 }),
    ).rejects.toMatchObject({
      code: "CLOUD_UNAVAILABLE",
      message: expect.stringContaining("QueueDoesNotExist"),
    });
    await expect(
      receiveEventMessages({ ...queue(), maxMessages: 11, waitSeconds: 0 }),
    ).rejects.toThrow(/maxMessages/);
  });
});
