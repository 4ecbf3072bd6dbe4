import { timingSafeEqual } from "node:crypto";
import {
  countRefusedEvent,
  type EventSourceRow,
  findEventSourceByTokenHash,
  recordAccountEvent,
} from "@sightline/db";
import {
  AppError,
  AwsCloudTrailEvent,
  invalidInput,
  isAwsEventName,
  isAwsEventSource,
  type ReceivedEvent,
  targetsOfEvent,
  toValidationIssues,
} from "@sightline/domain";
import type { ServiceContext } from "../context.ts";
import { enqueueEventStep } from "../queue/event-queue.ts";
import { eventTokenHash } from "./event-sources.ts";
import { fanOutOrganizationEvent } from "./organization-fan-out.ts";
import type { StepTarget } from "./step-target.ts";

/** The event source a token names, compared in constant time; 401 otherwise. */
export async function eventSourceOfToken(
  ctx: ServiceContext,
  token: string | undefined,
): Promise<EventSourceRow> {
  const unauthenticated = (why: string) => new AppError("UNAUTHENTICATED", why);
  if (!token) throw unauthenticated("x-sightline-event-token is missing");
  const hash = eventTokenHash(token);
  const source = await findEventSourceByTokenHash(ctx.db, hash);
  if (!source || !timingSafeEqual(source.tokenHash, hash))
    throw unauthenticated("x-sightline-event-token is not a current event token");
  return source;
}

/**
 * One CloudTrail event posted by an account's EventBridge API destination (or read from SQS):
 * checked against the token's account, recorded once per event ID, and its account's event step
 * scheduled. Nothing is analysed here: the answer must come within EventBridge's 5 s.
 */
export async function receiveAwsEvent(
  ctx: ServiceContext,
  source: EventSourceRow,
  body: unknown,
  settings: { quietSeconds: number },
): Promise<ReceivedEvent> {
  const key = { customerId: source.customerId, accountId: source.accountId };
  const parsed = AwsCloudTrailEvent.safeParse(body);
  if (!parsed.success) {
    await countRefusedEvent(ctx.db, key);
    throw invalidInput("event", toValidationIssues(parsed.error.issues));
  }
  const event = parsed.data;
  const eventId = event.detail.eventID;
  if (event.account !== source.accountId) {
    await countRefusedEvent(ctx.db, key);
    throw new AppError(
      "FORBIDDEN",
      `This token is account ${source.accountId}'s; the event is account ${event.account}'s`,
    );
  }
  const found = targetsOfEvent(event);
  if (found.status === "no-change") return { eventId, status: "no-change", reason: found.reason };
  // A call the full collection reads, whose names could not be read: the step collects the
  // account whole rather than guess.
  const { eventSource, eventName } = event.detail;
  const known = isAwsEventSource(eventSource) && isAwsEventName(eventSource, eventName);
  const targets: StepTarget[] | undefined =
    found.status === "targets"
      ? found.targets
      : known
        ? [{ kind: "account", reason: `${eventName}: ${found.reason}` }]
        : undefined;
  // The event and its step's job in one transaction: a pending event always has a step coming.
  const recorded = await ctx.db.transaction(async (tx) => {
    const recorded = {
      ...key,
      provider: source.provider,
      eventId,
      eventName: event.detail.eventName,
      eventTime: new Date(event.detail.eventTime ?? event.time),
    };
    const status = await recordAccountEvent(tx, {
      ...recorded,
      ...(targets ? { targets: targets as unknown as Record<string, unknown>[] } : {}),
    });
    const startAfter = new Date(ctx.now().getTime() + settings.quietSeconds * 1000);
    if (status === "pending") await enqueueEventStep(ctx.boss, tx, { ...key, startAfter });
    // An SCP or RCP: the organisation's other accounts of the same customer too.
    if (status === "pending" && targets?.some((t) => t.kind === "organization"))
      await fanOutOrganizationEvent(tx, ctx, recorded, startAfter);
    return status;
  });
  if (recorded === "duplicate") return { eventId, status: "duplicate" };
  if (recorded === "unknown")
    return {
      eventId,
      status: "unknown",
      ...(found.status === "unknown" ? { reason: found.reason } : {}),
    };
  return { eventId, status: "accepted" };
}
