import { createDb } from "@sightline/db";
import type { Logger } from "@sightline/logging";
import type { AlertSettings } from "../alerts/alert-settings.ts";
import type { ServiceContext } from "../context.ts";
import type { QueueSettings } from "../queue/analysis-queue.ts";
import type { LeaseKeeper } from "../queue/lease-keeper.ts";
import { drainJobQueue } from "./drain-job-queue.ts";
import { loadMasterKey } from "./load-master-key.ts";
import { startJobQueue } from "./start-job-queue.ts";

export interface OpenedServices {
  ctx: ServiceContext;
  /**
   * Waits for running jobs up to `drainMs`, hands back those still running (to `leases`' reaper:
   * they run again at once elsewhere), then closes the queue and the pool.
   */
  close(drainMs: number, leases?: LeaseKeeper): Promise<void>;
}

/** The verbs' context for a worker process: a pool, the job queue with maintenance, the key. */
export async function openServiceContext(options: {
  databaseUrl: string;
  dataDir: string;
  logger: Logger;
  kmsKeyId: string | undefined;
  queue: QueueSettings;
  /** How alerts are delivered (allowed hosts, mail relay, retries). */
  alerts?: AlertSettings;
}): Promise<OpenedServices> {
  const database = createDb(options.databaseUrl, { maxConnections: 4 });
  const boss = await startJobQueue({ ...options, maintenance: true });
  const masterKey = await loadMasterKey(options);
  return {
    ctx: {
      db: database.db,
      databaseUrl: options.databaseUrl,
      boss,
      masterKey,
      logger: options.logger,
      now: () => new Date(),
      ...(options.alerts ? { alerts: options.alerts } : {}),
    },
    async close(drainMs, leases) {
      await drainJobQueue(boss, leases, drainMs);
      await database.close();
    },
  };
}
