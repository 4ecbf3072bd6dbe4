import { type Database, pruneAuditEvents } from "@sightline/db";
import type { Logger } from "@sightline/logging";

const DAY_MS = 86_400_000;
/** Pruning is cheap when there is nothing to prune: a few times a day is enough. */
const EVERY_MS = 6 * 3_600_000;

/**
 * Deletes audit events older than `retentionDays` (`SIGHTLINE_AUDIT_RETENTION_DAYS`) soon after
 * start and every six hours, each pruning recorded in its tenant's chain. Several processes may
 * run it: a tenant's pruning holds its chain's lock, and a second finds nothing left.
 */
export function startAuditPruning(db: Database, retentionDays: number, logger: Logger): () => void {
  const prune = async () => {
    const now = new Date();
    try {
      const pruned = await pruneAuditEvents(
        db,
        new Date(now.getTime() - retentionDays * DAY_MS),
        now,
      );
      if (pruned > 0) logger.info({ pruned, retentionDays }, "audit events pruned");
    } catch (err) {
      logger.warn({ err }, "audit events not pruned: tried again later");
    }
  };
  const first = setTimeout(prune, 60_000);
  const timer = setInterval(prune, EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
