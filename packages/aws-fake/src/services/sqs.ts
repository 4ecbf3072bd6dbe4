import { FakeAwsError } from "../fake-errors.ts";
import type { FakeCall, FakeServiceHandler } from "../fake-state.ts";
import type { FakeResponse } from "../protocols/responses.ts";
import { jsonBody, jsonOperation } from "./json-params.ts";
import {
  createQueue,
  messageOfHandle,
  queueOfUrl,
  sendMessage,
  takeVisible,
  waitForMessage,
} from "./sqs-queues.ts";

/** The longest long poll SQS allows. */
const MAX_WAIT_SECONDS = 20;

/**
 * SQS over AWS JSON 1.0 (`X-Amz-Target: AmazonSQS.<Operation>`), as `@aws-sdk/client-sqs` 3.x
 * speaks it: queues of the caller's account, messages with receipt handles, visibility
 * timeouts and long polling (`WaitTimeSeconds`, 20 s at most).
 */
export const fakeSqs: FakeServiceHandler = {
  identify(request) {
    const body = jsonBody(request);
    const resource = body.QueueUrl ?? body.QueueName;
    return {
      operation: jsonOperation(request),
      ...(typeof resource === "string" ? { resource } : {}),
    };
  },
  async handle(call) {
    return json(await answer(call));
  },
};

function json(result: object): FakeResponse {
  return {
    status: 200,
    headers: { "content-type": "application/x-amz-json-1.0" },
    body: JSON.stringify(result),
  };
}

async function answer(call: FakeCall): Promise<object> {
  const { state, request, session } = call;
  const body = jsonBody(request);
  const endpoint = `http://${request.headers.host ?? "127.0.0.1"}`;
  const urlOf = (name: string) => `${endpoint}/${session.accountId}/${name}`;
  switch (call.operation) {
    case "CreateQueue": {
      const name = requiredString(body.QueueName, "QueueName");
      const attributes = (body.Attributes ?? {}) as Record<string, string>;
      const timeout = attributes.VisibilityTimeout
        ? Number(attributes.VisibilityTimeout)
        : undefined;
      createQueue(state.queues, session.accountId, name, timeout);
      return { QueueUrl: urlOf(name) };
    }
    case "GetQueueUrl": {
      const name = requiredString(body.QueueName, "QueueName");
      queueOfUrl(state.queues, urlOf(name));
      return { QueueUrl: urlOf(name) };
    }
    case "SendMessage": {
      const queue = queueOfUrl(state.queues, body.QueueUrl);
      const message = sendMessage(queue, requiredString(body.MessageBody, "MessageBody"));
      return { MessageId: message.messageId, MD5OfMessageBody: message.md5 };
    }
    case "ReceiveMessage": {
      const queue = queueOfUrl(state.queues, body.QueueUrl);
      const max = bounded(body.MaxNumberOfMessages, 1, 1, 10, "MaxNumberOfMessages");
      const wait = bounded(body.WaitTimeSeconds, 0, 0, MAX_WAIT_SECONDS, "WaitTimeSeconds");
      const visibility = bounded(
        body.VisibilityTimeout,
        queue.visibilityTimeout,
        0,
        43_200,
        "VisibilityTimeout",
      );
      const deadline = Date.now() + wait * 1000;
      let taken = takeVisible(queue, max, visibility);
      while (taken.length === 0 && Date.now() < deadline) {
        await waitForMessage(queue, deadline);
        taken = takeVisible(queue, max, visibility);
      }
      if (taken.length === 0) return {};
      return {
        Messages: taken.map((message) => ({
          MessageId: message.messageId,
          ReceiptHandle: message.receiptHandle,
          MD5OfBody: message.md5,
          Body: message.body,
          Attributes: {
            ApproximateReceiveCount: String(message.receiveCount),
            SentTimestamp: String(message.sentAt),
          },
        })),
      };
    }
    case "DeleteMessage": {
      const queue = queueOfUrl(state.queues, body.QueueUrl);
      const message = messageOfHandle(queue, body.ReceiptHandle);
      // SQS accepts a handle of a message already deleted: deleting is idempotent.
      if (message) queue.messages.splice(queue.messages.indexOf(message), 1);
      return {};
    }
    case "ChangeMessageVisibility": {
      const queue = queueOfUrl(state.queues, body.QueueUrl);
      const message = messageOfHandle(queue, body.ReceiptHandle);
      const timeout = bounded(body.VisibilityTimeout, 0, 0, 43_200, "VisibilityTimeout");
      if (!message || message.visibleAt <= Date.now()) {
        throw new FakeAwsError("MessageNotInflight", "The message is not in flight.", 400);
      }
      message.visibleAt = Date.now() + timeout * 1000;
      for (const wake of queue.waiters) wake();
      return {};
    }
    default:
      throw new FakeAwsError(
        "UnsupportedOperation",
        `Unsupported SQS operation ${call.operation}`,
        400,
      );
  }
}

function requiredString(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") {
    throw new FakeAwsError(
      "MissingParameter",
      `The request must contain the parameter ${name}.`,
      400,
    );
  }
  return value;
}

function bounded(value: unknown, fallback: number, min: number, max: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new FakeAwsError(
      "InvalidParameterValue",
      `${name} must be an integer from ${min} to ${max}.`,
      400,
    );
  }
  return value;
}
