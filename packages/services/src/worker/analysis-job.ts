import { rm } from "node:fs/promises";
import path from "node:path";
import { deleteExecutionCredential, finishExecution, getExecution } from "@sightline/db";
import type PgBoss from "pg-boss";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import type { ServiceContext } from "../context.ts";
import type { AnalysisJob } from "../queue/analysis-queue.ts";
import type { JobLease } from "../queue/job-lease.ts";

/**
 * Runs one analysis job under its lease. A failure that may pass is thrown, so that pg-boss runs
 * the job again after its back-off; any other outcome is already recorded, and the job completes.
 */
export function analysisJobHandler(ctx: ServiceContext, settings: AnalysisSettings) {
  return async (job: PgBoss.JobWithMetadata<AnalysisJob>, lease: JobLease) => {
    // The pipeline (AWS SDK, engine, writers: about a second to load) loads with the first job,
    // so that the API answers sooner after start.
    const { runAnalysis } = await import("../analysis/run-analysis.ts");
    const final = job.retryCount >= job.retryLimit;
    const outcome = await runAnalysis(ctx, settings, job.data.executionId, { final, lease });
    if (outcome.status === "retrying") throw outcome.error;
  };
}

/**
 * A hung analysis (alive, renewing, never ending) ends failed once over its maximum run time.
 * Its attempt, stuck, never gets to remove its leftovers: its own credential and work files go
 * here (the hourly sweep would take up to an hour).
 */
export function analysisOverrun(
  ctx: ServiceContext,
  maxRunSeconds: number,
  settings: Pick<AnalysisSettings, "workDir">,
) {
  return async (job: PgBoss.JobWithMetadata<AnalysisJob>, lease: JobLease) => {
    const { executionId } = job.data;
    ctx.logger.error({ executionId }, "analysis over its maximum run time");
    await lease.fenced(ctx.db, async (tx) => {
      await finishExecution(tx, executionId, {
        status: "failed",
        failure: {
          code: "RUN_TIME_EXCEEDED",
          message: `The analysis ran for more than ${maxRunSeconds} s without finishing and was stopped; trigger it again, and tell the operator if it recurs`,
        },
        warnings: [],
      });
      await deleteExecutionCredential(tx, executionId);
    });
    await rm(path.join(settings.workDir, executionId), { recursive: true, force: true });
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
