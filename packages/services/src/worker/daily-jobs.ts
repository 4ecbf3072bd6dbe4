import { listAllMonitoredAccounts } from "@sightline/db";
import { AppError } from "@sightline/domain";
import type PgBoss from "pg-boss";
import type { ServiceContext } from "../context.ts";
import { DAILY_ACCOUNT_QUEUE } from "../queue/analysis-queue.ts";
import { triggerAnalysis } from "../triggers/trigger-analysis.ts";

interface DailyAccountJob {
  customerId: string;
  accountId: string;
}

/**
 * The daily run: one job per monitored account, spread evenly over `windowMinutes` so that a
 * thousand accounts do not all start at 07:00. The execution is created when its job is due.
 */
export function dailyFanOutHandler(ctx: ServiceContext, windowMinutes: number) {
  return async () => {
    const accounts = await listAllMonitoredAccounts(ctx.db);
    const now = ctx.now().getTime();
    const step = accounts.length > 0 ? (windowMinutes * 60_000) / accounts.length : 0;
    const jobs = accounts.map((account, i) => ({
      name: DAILY_ACCOUNT_QUEUE,
      data: account satisfies DailyAccountJob,
      startAfter: new Date(now + Math.floor(i * step)),
    }));
    await ctx.boss.insert(jobs);
    ctx.logger.info({ accounts: accounts.length, windowMinutes }, "daily analyses scheduled");
  };
}

/** Skips an account already being analysed (its reports are about to be fresh) or gone. */
export function dailyAccountHandler(ctx: ServiceContext) {
  return async (jobs: PgBoss.Job<DailyAccountJob>[]) => {
    for (const { data } of jobs) {
      try {
        const started = await triggerAnalysis(ctx, {
          owner: { kind: "customer-id", customerId: data.customerId },
          accountId: data.accountId,
          kind: "daily",
        });
        ctx.logger.info({ executionId: started.executionId }, "daily analysis queued");
      } catch (error) {
        if (!(error instanceof AppError) || error.retryable) throw error;
        ctx.logger.info(
          { ...data, code: error.code, reason: error.message },
          "daily analysis skipped",
        );
      }
    }
  };
}
