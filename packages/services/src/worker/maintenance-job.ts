import { deleteExpiredCredentials, deleteSnapshotsBefore } from "@sightline/db";
import type { ServiceContext } from "../context.ts";

const DAY_MS = 86_400_000;

/** Deletes own credentials past their expiry, and snapshots older than the retention. */
export function maintenanceHandler(ctx: ServiceContext, snapshotRetentionDays: number) {
  return async () => {
    const now = ctx.now();
    const credentials = await deleteExpiredCredentials(ctx.db, now);
    const snapshots = await deleteSnapshotsBefore(
      ctx.db,
      new Date(now.getTime() - snapshotRetentionDays * DAY_MS),
    );
    ctx.logger.info({ credentials, snapshots }, "maintenance: expired data deleted");
  };
}
