import type { Database } from "@sightline/db";
import type { Caller } from "@sightline/domain";
import type { CallerCache } from "./caller-cache.ts";
import type { Logger } from "./logger.ts";
import type { ReadCache } from "./read-cache.ts";

/** Everything the app needs from outside; built once at start-up (or by a test). */
export interface AppDeps {
  db: Database;
  /** Resolves when the database answers. */
  pingDatabase(): Promise<void>;
  /** SHA-256 hex of SIGHTLINE_ADMIN_KEY. */
  adminKeyHash: string;
  logger: Logger;
  /** Recently authenticated keys; see CallerCache. */
  callerCache: CallerCache;
  /** Serialised partner reads, invalidated by the database's change feed; see ReadCache. */
  readCache: ReadCache;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    caller: Caller;
  };
};
