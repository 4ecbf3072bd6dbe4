import { finishExecution, getExecution } from "@sightline/db";
import type PgBoss from "pg-boss";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import type { ServiceContext } from "../context.ts";
import type { AnalysisJob } from "../queue/analysis-queue.ts";

/**
 * Runs one analysis job. A failure that may pass is thrown, so that pg-boss runs the job again
 * after its back-off; any other outcome is already recorded, and the job completes.
 */
export function analysisJobHandler(ctx: ServiceContext, settings: AnalysisSettings) {
  return async (jobs: PgBoss.JobWithMetadata<AnalysisJob>[]) => {
    // The pipeline (AWS SDK, engine, writers: about a second to load) loads with the first job,
    // so that the API answers sooner after start.
    const { runAnalysis } = await import("../analysis/run-analysis.ts");
    for (const job of jobs) {
      const final = job.retryCount >= job.retryLimit;
      const outcome = await runAnalysis(ctx, settings, job.data.executionId, { final });
      if (outcome.status === "retrying") throw outcome.error;
    }
  };
}

/**
 * A job that pg-boss failed for good without the handler recording it: its worker died (or
 * hung past the job's expiry) on every attempt. Its execution ends `failed` with that reason.
 */
export function lostAnalysisHandler(ctx: ServiceContext) {
  return async (jobs: PgBoss.Job<AnalysisJob>[]) => {
    for (const job of jobs) {
      const execution = await getExecution(ctx.db, job.data.executionId);
      if (!execution || !["queued", "running"].includes(execution.status)) continue;
      ctx.logger.error({ executionId: execution.executionId }, "analysis lost: its worker stopped");
      await finishExecution(ctx.db, execution.executionId, {
        status: "failed",
        failure: {
          code: "INTERNAL",
          message: `The analysis stopped without finishing ${execution.attempts} times (its worker was stopped or ran out of time); trigger it again, and tell the operator if it recurs`,
        },
        warnings: [],
      });
    }
  };
}
