import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
} from "@aws-sdk/client-sqs";
import { createQueueClient, type EventQueueInput, queueCallError } from "./event-queue.ts";

export interface ReceiveEventMessagesInput extends EventQueueInput {
  /** 1–10, as SQS allows. */
  readonly maxMessages: number;
  /** Long polling: 0–20 s. */
  readonly waitSeconds: number;
  /** How long the messages stay hidden from other consumers. Default: the queue's own. */
  readonly visibilitySeconds?: number;
}

/** One message: its body (an EventBridge envelope, as text), and what deletes it. */
export interface EventMessage {
  readonly body: string;
  readonly receiptHandle: string;
  readonly messageId: string;
}

/**
 * Receives up to `maxMessages` messages of Sightline's event queue, waiting up to
 * `waitSeconds` for the first. A message comes back after its visibility timeout unless it is
 * deleted (`deleteEventMessage`), which the caller does once its event is recorded.
 */
export async function receiveEventMessages(
  input: ReceiveEventMessagesInput,
): Promise<{ messages: EventMessage[] }> {
  if (!Number.isInteger(input.maxMessages) || input.maxMessages < 1 || input.maxMessages > 10) {
    throw new RangeError(`maxMessages must be an integer from 1 to 10, not ${input.maxMessages}`);
  }
  if (!Number.isInteger(input.waitSeconds) || input.waitSeconds < 0 || input.waitSeconds > 20) {
    throw new RangeError(`waitSeconds must be an integer from 0 to 20, not ${input.waitSeconds}`);
  }
  const client = createQueueClient(input);
  try {
    const answer = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: input.queueUrl,
        MaxNumberOfMessages: input.maxMessages,
        WaitTimeSeconds: input.waitSeconds,
        ...(input.visibilitySeconds === undefined
          ? {}
          : { VisibilityTimeout: input.visibilitySeconds }),
      }),
    );
    const messages = (answer.Messages ?? []).flatMap((message) =>
      message.Body !== undefined && message.ReceiptHandle && message.MessageId
        ? [
            {
              body: message.Body,
              receiptHandle: message.ReceiptHandle,
              messageId: message.MessageId,
            },
          ]
        : [],
    );
    return { messages };
  } catch (error) {
    throw queueCallError(error, "sqs:ReceiveMessage", input.queueUrl);
  } finally {
    client.destroy();
  }
}

/** Deletes a received message (idempotent: SQS accepts a handle already used). */
export async function deleteEventMessage(
  input: EventQueueInput & { readonly receiptHandle: string },
): Promise<void> {
  const client = createQueueClient(input);
  try {
    await client.send(
      new DeleteMessageCommand({ QueueUrl: input.queueUrl, ReceiptHandle: input.receiptHandle }),
    );
  } catch (error) {
    throw queueCallError(error, "sqs:DeleteMessage", input.queueUrl);
  } finally {
    client.destroy();
  }
}

/** Hides a received message for `visibilitySeconds` more (0: gives it back at once). */
export async function changeEventMessageVisibility(
  input: EventQueueInput & { readonly receiptHandle: string; readonly visibilitySeconds: number },
): Promise<void> {
  const client = createQueueClient(input);
  try {
    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: input.queueUrl,
        ReceiptHandle: input.receiptHandle,
        VisibilityTimeout: input.visibilitySeconds,
      }),
    );
  } catch (error) {
    throw queueCallError(error, "sqs:ChangeMessageVisibility", input.queueUrl);
  } finally {
    client.destroy();
  }
}
