import { z } from "zod";

/** The EventBridge event pattern of the monitored account's rule (`awsEventRulePattern()`). */
const RuleEventPattern = z
  .record(z.string(), z.unknown())
  .describe(
    "The event pattern of the account's EventBridge rule; the templates in deploy/ carry the same one",
  );

const EventSourceAddress = {
  endpoint: z.url().describe("Where the account's EventBridge API destination posts"),
  headerName: z.string().describe("The header of the connection's API-key authorisation"),
  ruleEventPattern: RuleEventPattern,
};

/** `POST …/event-source/rotate`: the token, shown this once (only its hash is stored). */
export const RotatedEventSource = z
  .object({
    token: z.string().describe("Shown only here: store it in the connection"),
    ...EventSourceAddress,
  })
  .meta({ id: "RotatedEventSource" });
export type RotatedEventSource = z.infer<typeof RotatedEventSource>;

/** `GET …/event-source`: where events go and what arrived; never the token. */
export const EventSourceStatus = z
  .object({
    ...EventSourceAddress,
    tokenCreatedAt: z.iso.datetime(),
    eventsReceived: z.number().int().nonnegative(),
    eventsApplied: z.number().int().nonnegative(),
    eventsRefused: z.number().int().nonnegative(),
    unknownEvents: z.number().int().nonnegative(),
    lastEventAt: z.iso.datetime().optional(),
    lastAppliedAt: z.iso.datetime().optional(),
  })
  .meta({ id: "EventSourceStatus" });
export type EventSourceStatus = z.infer<typeof EventSourceStatus>;

/** `POST /events/aws`: 202 for every event taken (a duplicate included), with what it did. */
export const ReceivedEvent = z
  .object({
    eventId: z.string(),
    status: z
      .enum(["accepted", "duplicate", "unknown", "no-change"])
      .describe(
        "accepted: queued for an event step; duplicate: already taken; unknown: counted, triggers nothing (the daily analysis sees it); no-change: a call that changed nothing",
      ),
    reason: z.string().optional(),
  })
  .meta({ id: "ReceivedEvent" });
export type ReceivedEvent = z.infer<typeof ReceivedEvent>;
