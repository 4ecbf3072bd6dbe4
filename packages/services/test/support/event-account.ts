import { listAccessChanges } from "@sightline/db";
import type { AccessChange } from "@sightline/domain";
import { rotateEventToken } from "../../src/events/event-sources.ts";
import { eventSourceOfToken, receiveAwsEvent } from "../../src/events/receive-aws-event.ts";
import { triggerAnalysis } from "../../src/triggers/trigger-analysis.ts";
import type { Pipeline } from "./pipeline.ts";

/**
 * Where the event tests start: a new partner's account analysed once, then given an event
 * source (its token rotated), as a customer does before the EventBridge rule forwards anything.
 */
export async function eventAccount(pipeline: Pipeline, accountId: string) {
  const { ctx } = pipeline;
  const partner = await pipeline.partner();
  const owner = { kind: "partner" as const, ...partner };
  const key = { customerId: partner.customerId, accountId };
  /** A full analysis of the account, run to its end. */
  const analyse = async () => {
    const { executionId } = await triggerAnalysis(ctx, { owner, accountId, kind: "ondemand" });
    return pipeline.finished(executionId);
  };
  const first = await analyse();
  if (first.status !== "succeeded")
    throw new Error(`the account's first analysis ${first.status}: ${first.failureMessage}`);
  const { token } = await rotateEventToken(ctx, owner, accountId, "https://sightline.example");
  const source = await eventSourceOfToken(ctx, token);
  return {
    partner,
    owner,
    key,
    analyse,
    token,
    source,
    /** Posts one event as `POST /events/aws` does, its step enqueued after `quietSeconds`. */
    post: (event: unknown, quietSeconds = 0.5) =>
      receiveAwsEvent(ctx, source, event, { quietSeconds }),
    /** The changes an execution stored, with their causes. */
    storedChanges: async (executionId: string) =>
      (await listAccessChanges(ctx.db, { ...key, limit: 10_000 })).changes.filter(
        (c) => c.executionId === executionId,
      ),
    /** The changes an execution stored, as the API returns them. */
    changesOf: async (executionId: string) =>
      (await listAccessChanges(ctx.db, { ...key, limit: 10_000 })).changes
        .filter((c) => c.executionId === executionId)
        .map((c) => c.change as unknown as AccessChange),
  };
}
