import { createDb, listenForChanges } from "@sightline/db";
import { CallerCache } from "./caller-cache.ts";
import type { AppDeps } from "./context.ts";
import { hashKey } from "./keys.ts";
import type { Logger } from "./logger.ts";
import { ReadCache } from "./read-cache.ts";

export interface RunningDeps {
  deps: AppDeps;
  close(): Promise<void>;
}

/** Connects what the app needs: the pool, the caches and the change feed that keeps them true. */
export async function connectAppDeps(options: {
  databaseUrl: string;
  adminKey: string;
  logger: Logger;
  maxConnections?: number;
}): Promise<RunningDeps> {
  const database = createDb(options.databaseUrl, { maxConnections: options.maxConnections ?? 10 });
  const callerCache = new CallerCache();
  const readCache = new ReadCache();
  const feed = await listenForChanges(options.databaseUrl, {
    partnerChanged: (partnerId) => readCache.invalidate(partnerId),
    apiKeyRevoked: (keyId) => callerCache.evictKey(keyId),
    resynchronised: () => readCache.resume(),
    disconnected: () => {
      readCache.suspend();
      options.logger.warn("change feed disconnected: read cache suspended until it reconnects");
    },
  });
  return {
    deps: {
      db: database.db,
      pingDatabase: database.ping,
      adminKeyHash: hashKey(options.adminKey),
      logger: options.logger,
      callerCache,
      readCache,
    },
    async close() {
      await feed.close();
      await database.close();
    },
  };
}
