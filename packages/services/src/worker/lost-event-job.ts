import { findActiveExecution, finishExecution } from "@sightline/db";
import type PgBoss from "pg-boss";
import type { ServiceContext } from "../context.ts";
import type { EventStepJob } from "../queue/event-queue.ts";

/**
 * An event job that pg-boss failed for good without the handler recording it (its worker kept
 * dying): the account's event step ends `failed`; its events stay pending for the next step.
 */
export function lostEventHandler(ctx: ServiceContext) {
  return async (jobs: PgBoss.Job<EventStepJob>[]) => {
    for (const job of jobs) {
      const executionId = await findActiveExecution(ctx.db, job.data, "event");
      if (!executionId) continue;
      ctx.logger.error({ executionId }, "event step lost: its worker stopped");
      await finishExecution(ctx.db, executionId, {
        status: "failed",
        failure: {
          code: "INTERNAL",
          message:
            "The event step stopped without finishing several times (its worker was stopped or ran out of time); the next event or the daily analysis applies its events",
        },
        warnings: [],
      });
    }
  };
}
