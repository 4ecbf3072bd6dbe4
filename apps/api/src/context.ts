import type { Database } from "@sightline/db";
import type { ApiClient } from "@sightline/domain";
import type { Logger } from "@sightline/logging";
import type { AccessPaths, ServiceContext } from "@sightline/services";
import type { ApiClientCache } from "./api-client-cache.ts";
import type { RefusalRecorder } from "./audit-refusals.ts";
import type { AuditNote } from "./audit-trail.ts";
import type { RateLimits } from "./rate-limits.ts";
import type { ReadCache } from "./read-cache.ts";

/** Everything the app needs from outside; built once at start-up (or by a test). */
export interface AppDeps {
  db: Database;
  /** Resolves when the database answers. */
  pingDatabase(): Promise<void>;
  /** SHA-256 hex of SIGHTLINE_ADMIN_KEY. */
  adminKeyHash: string;
  logger: Logger;
  /** Recently authenticated keys; see ApiClientCache. */
  apiClientCache: ApiClientCache;
  /** Serialised partner reads, invalidated by the database's change feed; see ReadCache. */
  readCache: ReadCache;
  /** The address clients use, for the OpenAPI document's `servers`. */
  publicUrl: string;
  /** What the business verbs need (triggers enqueue through its job queue). */
  services: ServiceContext;
  /**
   * Access graphs of customers' newest snapshots (endpoint 12), rebuilt when one changes: held,
   * and their paths enumerated, in a worker thread.
   */
  accessPaths: AccessPaths;
  /** Writes valid keys' 403s into their tenants' trails, a bounded number a minute. */
  refusals: RefusalRecorder;
  /** `SIGHTLINE_KEY_MAX_DAYS`: new keys must expire within this many days; unbounded when unset. */
  keyMaxDays?: number;
  /** Token buckets per client address, per API key and per event source; none when unset. */
  rateLimits?: RateLimits;
  /** The event intake: how long an account's events wait for quiet before its step runs. */
  events?: { quietSeconds: number };
  /** Served over HTTPS: answers carry Strict-Transport-Security. */
  https?: boolean;
  /** Behind a proxy: the client address is the last entry of X-Forwarded-For. */
  trustProxy?: boolean;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** The authenticated API client (set by `authenticate`). */
    apiClient: ApiClient;
    /** Set when a request reaches its route's handler (audited routes). */
    handlerReached?: boolean;
    /** What the handler adds to its audit event. */
    auditNote?: AuditNote;
  };
};
