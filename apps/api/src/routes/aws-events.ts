import { createRoute } from "@hono/zod-openapi";
import { countRefusedEvent } from "@sightline/db";
import {
  AppError,
  AWS_EVENT_TOKEN_HEADER,
  MAX_AWS_EVENT_BYTES,
  ReceivedEvent,
} from "@sightline/domain";
import { DEFAULT_EVENT_SETTINGS, eventSourceOfToken, receiveAwsEvent } from "@sightline/services";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";
import { enforceRateLimit } from "../rate-limits.ts";

const DESCRIPTION = `One CloudTrail management event, as a monitored account's EventBridge API destination posts it (the EventBridge envelope: \`detail-type\` "AWS API Call via CloudTrail", \`account\`, \`detail.eventName\`, \`detail.eventID\`, …), authenticated by the account's event token in \`${AWS_EVENT_TOKEN_HEADER}\` (\`POST …/event-source/rotate\`), never by an API key.

Checked before it is trusted: the token (401); the event's \`account\` must be the token's account (403); its shape (400 naming the field); at most ${MAX_AWS_EVENT_BYTES / 1024} KiB (413); a per-account rate (429 with \`Retry-After\`; this route has no per-address limit, since EventBridge posts from shared addresses, and no plan limit). A refused event changes nothing. An accepted one is recorded and answered within milliseconds: the account's event step runs in the worker once its events have been quiet for a few seconds (a burst is one step), and its changes are stored and alerted like a full analysis's. The same \`detail.eventID\` again (EventBridge retries for 24 h) answers 202 \`duplicate\` and does nothing. An event Sightline does not read answers 202 \`unknown\`: counted, and seen by the daily analysis.`;

/** The body as text, refused (413) as soon as it passes `max` bytes: never read whole. */
async function readCapped(request: Request, max: number): Promise<string> {
  const tooLarge = () =>
    new AppError(
      "PAYLOAD_TOO_LARGE",
      `An event is at most ${max / 1024} KiB (EventBridge's own limit)`,
    );
  if (Number(request.headers.get("content-length") ?? 0) > max) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The event's JSON: its media type, its size and its syntax checked. */
async function eventBody(request: Request, contentType: string | undefined): Promise<unknown> {
  const mediaType = (contentType ?? "").split(";")[0]?.trim() ?? "";
  if (!/^application\/([\w.-]+\+)?json$/i.test(mediaType))
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
  const text = await readCapped(request, MAX_AWS_EVENT_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("INVALID_INPUT", "The body is not JSON", {
      issues: [{ path: "(body)", message: "must be JSON" }],
    });
  }
}

/** `POST /events/aws`: the event intake. */
export const receiveAwsEventRoute = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/events/aws",
    operationId: "receiveAwsEvent",
    summary: "Receive a CloudTrail event",
    description: DESCRIPTION,
    tags: ["Events"],
    responses: {
      202: ok(ReceivedEvent, "Taken (or already taken): what it did"),
      ...errorsOf(400, 401, 403, 413, 415, 429),
    },
  }),
  access: { kind: "public" },
  handler: (deps) => async (c) => {
    const source = await eventSourceOfToken(deps.services, c.req.header(AWS_EVENT_TOKEN_HEADER));
    const buckets = deps.rateLimits?.perEventSource;
    if (buckets)
      enforceRateLimit(
        c,
        buckets.take(`${source.customerId}/${source.accountId}`),
        `Too many events for account ${source.accountId}`,
      );
    let body: unknown;
    try {
      body = await eventBody(c.req.raw, c.req.header("content-type"));
    } catch (error) {
      // Counted on the account's source, as the verb counts the refusals it makes.
      await countRefusedEvent(deps.db, source);
      throw error;
    }
    const received = await receiveAwsEvent(
      { ...deps.services, logger: c.get("logger") },
      source,
      body,
      {
        quietSeconds: deps.events?.quietSeconds ?? DEFAULT_EVENT_SETTINGS.quietSeconds,
      },
    );
    c.get("logger").info(
      { accountId: source.accountId, eventId: received.eventId, status: received.status },
      "event received",
    );
    return c.json(received, 202);
  },
});
