import {
  type AwsClientOptions,
  type AwsCredentials,
  deleteEventMessage,
  receiveEventMessages,
} from "@sightline/aws";
import { listEventSourcesOfAccount } from "@sightline/db";
import { AppError } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { receiveAwsEvent } from "./receive-aws-event.ts";

export interface EventQueueSettings {
  /** `SIGHTLINE_EVENTS_SQS_URL`: one central bus's queue, for many accounts. */
  queueUrl: string;
  /** Sightline's own credentials (default: the SDK's chain) and client options (tests). */
  credentials?: AwsCredentials;
  clientOptions?: AwsClientOptions;
  /** How long an account's events wait for quiet before its step. */
  quietSeconds: number;
}

/**
 * Records one queued event for each tenant that switched events on for its account (an account
 * several tenants monitor reaches each of them). An unreadable message is logged and dropped:
 * it would never become readable.
 */
export async function applyQueuedEvent(
  ctx: ServiceContext,
  body: string,
  settings: Pick<EventQueueSettings, "quietSeconds">,
): Promise<number> {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    ctx.logger.warn("event queue: a message that is not JSON was dropped");
    return 0;
  }
  const account = (event as { account?: unknown }).account;
  if (typeof account !== "string") {
    ctx.logger.warn("event queue: a message without an account was dropped");
    return 0;
  }
  let recorded = 0;
  for (const source of await listEventSourcesOfAccount(ctx.db, account)) {
    try {
      await receiveAwsEvent(ctx, source, event, settings);
      recorded++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.logger.warn({ accountId: account, code: error.code }, `event queue: ${error.message}`);
    }
  }
  return recorded;
}

/**
 * Consumes the central event queue until stopped: long polls, records each message's event, and
 * deletes the message only once its event is recorded (a worker that dies before leaves it to
 * come back after its visibility timeout; the event ID makes the second time a duplicate).
 */
export function startEventQueueConsumer(
  ctx: ServiceContext,
  settings: EventQueueSettings,
): { stop(): Promise<void> } {
  let stopped = false;
  const queue = {
    queueUrl: settings.queueUrl,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    ...(settings.clientOptions ? { clientOptions: settings.clientOptions } : {}),
  };
  const loop = (async () => {
    let pause = 1;
    while (!stopped) {
      try {
        const { messages } = await receiveEventMessages({
          ...queue,
          maxMessages: 10,
          waitSeconds: 10,
        });
        for (const message of messages) {
          await applyQueuedEvent(ctx, message.body, settings);
          await deleteEventMessage({ ...queue, receiptHandle: message.receiptHandle });
        }
        pause = 1;
      } catch (error) {
        ctx.logger.warn({ err: error }, "event queue: receiving failed; trying again");
        await new Promise((resolve) => setTimeout(resolve, pause * 1000));
        pause = Math.min(pause * 2, 30);
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
