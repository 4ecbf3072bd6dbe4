import { createHash, randomUUID } from "node:crypto";
import { FakeAwsError } from "../fake-errors.ts";

/** One message of a queue; invisible until `visibleAt` once received. */
export interface FakeMessage {
  readonly messageId: string;
  readonly body: string;
  readonly md5: string;
  readonly sentAt: number;
  visibleAt: number;
  receiptHandle?: string;
  receiveCount: number;
}

export interface FakeQueue {
  readonly name: string;
  readonly accountId: string;
  /** Seconds a received message stays invisible unless the receive says otherwise. */
  readonly visibilityTimeout: number;
  readonly messages: FakeMessage[];
  /** Receives waiting (long polling) for a message to arrive. */
  readonly waiters: Set<() => void>;
}

/** Queues by `<account>/<name>`: the path of their URL. */
export type FakeQueues = Map<string, FakeQueue>;

export const md5Of = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

export function createQueue(
  queues: FakeQueues,
  accountId: string,
  name: string,
  visibilityTimeout = 30,
): FakeQueue {
  const key = `${accountId}/${name}`;
  let queue = queues.get(key);
  if (!queue) {
    queue = { name, accountId, visibilityTimeout, messages: [], waiters: new Set() };
    queues.set(key, queue);
  }
  return queue;
}

/** The queue a URL names (`<endpoint>/<account>/<name>`); `QueueDoesNotExist` otherwise. */
export function queueOfUrl(queues: FakeQueues, url: unknown): FakeQueue {
  const path = typeof url === "string" ? url.replace(/^[a-z]+:\/\/[^/]+\//, "") : "";
  const queue = queues.get(path);
  if (!queue) {
    throw new FakeAwsError("QueueDoesNotExist", "The specified queue does not exist.", 400);
  }
  return queue;
}

export function sendMessage(queue: FakeQueue, body: string): FakeMessage {
  const message: FakeMessage = {
    messageId: randomUUID(),
    body,
    md5: md5Of(body),
    sentAt: Date.now(),
    visibleAt: 0,
    receiveCount: 0,
  };
  queue.messages.push(message);
  for (const wake of queue.waiters) wake();
  return message;
}

/** Takes up to `max` visible messages, hiding each for `visibility` seconds with a new handle. */
export function takeVisible(queue: FakeQueue, max: number, visibility: number): FakeMessage[] {
  const now = Date.now();
  const taken = queue.messages.filter((message) => message.visibleAt <= now).slice(0, max);
  for (const message of taken) {
    message.visibleAt = now + visibility * 1000;
    message.receiptHandle = Buffer.from(`${message.messageId}:${randomUUID()}`).toString("base64");
    message.receiveCount++;
  }
  return taken;
}

/** The message a receipt handle was last given for; `ReceiptHandleIsInvalid` otherwise. */
export function messageOfHandle(queue: FakeQueue, handle: unknown): FakeMessage | undefined {
  if (typeof handle !== "string" || handle === "") {
    throw new FakeAwsError("ReceiptHandleIsInvalid", "The input receipt handle is invalid.", 400);
  }
  return queue.messages.find((message) => message.receiptHandle === handle);
}

/**
 * Waits until a message of the queue may be visible or `deadline` passes: a send wakes it, as
 * does the end of a message's invisibility.
 */
export function waitForMessage(queue: FakeQueue, deadline: number): Promise<void> {
  const now = Date.now();
  const hidden = queue.messages.map((message) => message.visibleAt).filter((at) => at > now);
  const until = Math.min(deadline, ...hidden);
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      queue.waiters.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, Math.max(0, until - now));
    timer.unref();
    queue.waiters.add(wake);
  });
}
