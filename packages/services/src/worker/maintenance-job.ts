import {
  abandonedMultipartUploads,
  deleteEventSnapshotsBefore,
  deleteExpiredCredentials,
  deleteSnapshotsBefore,
  pruneAccountEvents,
  pruneAnalysisResults,
} from "@sightline/db";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import type { ServiceContext } from "../context.ts";
import { ABANDONED_UPLOAD_AGE_MS, abortOpenUploads } from "../delivery/open-uploads.ts";
import { DEFAULT_EVENT_SETTINGS } from "./event-job.ts";
import { sweepLeftovers } from "./sweep-leftovers.ts";

const DAY_MS = 86_400_000;

/**
 * Deletes own credentials past their expiry, snapshots older than the retention (event steps'
 * after `eventSnapshotRetentionHours`, unless their results are kept), and each
 * account's stored results but the newest two (the next analysis compares with the newest; the
 * changes and findings they produced stay), received events applied or refused longer ago than
 * the snapshots are kept (two days at least: a replay is recognised for 24 hours); and sweeps the
 * files killed attempts left on the worker that runs it (`sweepLeftovers`); aborts the multipart
 * uploads killed attempts left open in S3 inboxes (recorded 15 minutes ago or more, of no attempt
 * that still holds its lease; one that fails to abort is tried again next time).
 */
export function maintenanceHandler(
  ctx: ServiceContext,
  snapshotRetentionDays: number,
  analysis: Pick<
    AnalysisSettings,
    "workDir" | "inboxDir" | "serviceCredentials" | "awsClientOptions"
  >,
  eventSnapshotRetentionHours = DEFAULT_EVENT_SETTINGS.snapshotRetentionHours,
) {
  return async () => {
    const now = ctx.now();
    const credentials = await deleteExpiredCredentials(ctx.db, now);
    const snapshots = await deleteSnapshotsBefore(
      ctx.db,
      new Date(now.getTime() - snapshotRetentionDays * DAY_MS),
    );
    const results = await pruneAnalysisResults(ctx.db, 2);
    // After the results: a step's snapshot is kept while its results are.
    const eventSnapshots = await deleteEventSnapshotsBefore(
      ctx.db,
      new Date(now.getTime() - eventSnapshotRetentionHours * 3_600_000),
    );
    const events = await pruneAccountEvents(
      ctx.db,
      new Date(now.getTime() - Math.max(2, snapshotRetentionDays) * DAY_MS),
    );
    const swept = await sweepLeftovers(ctx.db, analysis, now);
    const uploads = await abortOpenUploads(
      ctx.db,
      analysis,
      await abandonedMultipartUploads(
        ctx.db,
        new Date(now.getTime() - ABANDONED_UPLOAD_AGE_MS),
        now,
      ),
      ctx.logger,
    );
    ctx.logger.info(
      { credentials, snapshots, eventSnapshots, results, events, ...swept, uploads },
      "maintenance: expired data deleted",
    );
  };
}
