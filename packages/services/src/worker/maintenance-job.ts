import {
  deleteExpiredCredentials,
  deleteSnapshotsBefore,
  pruneAnalysisResults,
} from "@sightline/db";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import type { ServiceContext } from "../context.ts";
import { sweepLeftovers } from "./sweep-leftovers.ts";

const DAY_MS = 86_400_000;

/**
 * Deletes own credentials past their expiry, snapshots older than the retention, and each
 * account's stored results but the newest two (the next analysis compares with the newest; the
 * changes and findings they produced stay); and sweeps the files killed attempts left on the
 * worker that runs it (`sweepLeftovers`).
 */
export function maintenanceHandler(
  ctx: ServiceContext,
  snapshotRetentionDays: number,
  analysis: Pick<AnalysisSettings, "workDir" | "inboxDir">,
) {
  return async () => {
    const now = ctx.now();
    const credentials = await deleteExpiredCredentials(ctx.db, now);
    const snapshots = await deleteSnapshotsBefore(
      ctx.db,
      new Date(now.getTime() - snapshotRetentionDays * DAY_MS),
    );
    const results = await pruneAnalysisResults(ctx.db, 2);
    const swept = await sweepLeftovers(ctx.db, analysis, now);
    ctx.logger.info(
      { credentials, snapshots, results, ...swept },
      "maintenance: expired data deleted",
    );
  };
}
