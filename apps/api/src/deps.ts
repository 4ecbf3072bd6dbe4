import { createDb, listenForChanges } from "@sightline/db";
import type { Logger } from "@sightline/logging";
import {
  type AccessPaths,
  AccessPathThreads,
  type AlertSettings,
  inThreadAccessPaths,
  type MasterKey,
} from "@sightline/services";
import type PgBoss from "pg-boss";
import { ApiClientCache } from "./api-client-cache.ts";
import { RefusalRecorder } from "./audit-refusals.ts";
import type { AppDeps } from "./context.ts";
import { hashKey } from "./keys.ts";
import type { RateLimits } from "./rate-limits.ts";
import { ReadCache } from "./read-cache.ts";

export interface RunningDeps {
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * Connects what the app needs: the pool, the caches and the change feed that keeps them true.
 * The job queue and the master key belong to the caller, which starts and stops them.
 */
export async function connectAppDeps(options: {
  databaseUrl: string;
  adminKey: string;
  logger: Logger;
  /** A started pg-boss whose queues exist (`createQueues`). */
  boss: PgBoss;
  masterKey: MasterKey;
  publicUrl?: string;
  maxConnections?: number;
  /** Bounds on each request's queries (`statement_timeout`, `lock_timeout`), in seconds. */
  statementTimeoutSeconds?: number;
  lockTimeoutSeconds?: number;
  rateLimits?: RateLimits;
  /** The event intake's quiet period before an account's step (the workers' setting). */
  events?: { quietSeconds: number };
  https?: boolean;
  trustProxy?: boolean;
  /** How alert destinations are checked (allowed hosts, mail relay) and alerts delivered. */
  alerts?: AlertSettings;
  /** `SIGHTLINE_KEY_MAX_DAYS`: new keys must expire within this many days. */
  keyMaxDays?: number;
  /**
   * Where endpoint 12's graphs are built and held: a worker thread (the default), or the
   * request's own thread (the bench's baseline).
   */
  accessPaths?: "thread" | "in-thread";
}): Promise<RunningDeps> {
  const database = createDb(options.databaseUrl, {
    maxConnections: options.maxConnections ?? 10,
    ...(options.statementTimeoutSeconds
      ? { statementTimeoutSeconds: options.statementTimeoutSeconds }
      : {}),
    ...(options.lockTimeoutSeconds ? { lockTimeoutSeconds: options.lockTimeoutSeconds } : {}),
  });
  const apiClientCache = new ApiClientCache();
  const readCache = new ReadCache();
  const feed = await listenForChanges(options.databaseUrl, {
    partnerChanged: (partnerId) => readCache.invalidate(partnerId),
    apiKeyRevoked: (keyId) => apiClientCache.evictKey(keyId),
    resynchronised: () => {
      readCache.resume();
      apiClientCache.clear();
    },
    disconnected: () => {
      readCache.suspend();
      options.logger.warn("change feed disconnected: read cache suspended until it reconnects");
    },
  });
  const accessPaths: AccessPaths =
    options.accessPaths === "in-thread"
      ? inThreadAccessPaths()
      : new AccessPathThreads({ logger: options.logger });
  return {
    deps: {
      db: database.db,
      pingDatabase: database.ping,
      adminKeyHash: hashKey(options.adminKey),
      logger: options.logger,
      apiClientCache,
      readCache,
      refusals: new RefusalRecorder(),
      ...(options.keyMaxDays !== undefined ? { keyMaxDays: options.keyMaxDays } : {}),
      publicUrl: options.publicUrl ?? "http://127.0.0.1:8080",
      accessPaths,
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      ...(options.events ? { events: options.events } : {}),
      ...(options.https ? { https: true } : {}),
      ...(options.trustProxy ? { trustProxy: true } : {}),
      services: {
        db: database.db,
        boss: options.boss,
        masterKey: options.masterKey,
        logger: options.logger,
        now: () => new Date(),
        ...(options.alerts ? { alerts: options.alerts } : {}),
      },
    },
    async close() {
      await accessPaths.close();
      await feed.close();
      await database.close();
    },
  };
}
