import type { Database } from "@sightline/db";
import type { Logger } from "@sightline/logging";
import type PgBoss from "pg-boss";
import type { AlertSettings } from "./alerts/alert-settings.ts";
import type { MasterKey } from "./credentials/master-key.ts";

/** What the verbs need from outside, built once by the API or the worker (or a test). */
export interface ServiceContext {
  db: Database;
  /** The job queue; a started instance (the API uses it only to enqueue). */
  boss: PgBoss;
  /** Wraps the data keys of own credentials. */
  masterKey: MasterKey;
  logger: Logger;
  /** The clock: execution dates, credential expiry, daily limits. */
  now: () => Date;
  /**
   * Where `db` connects: a worker's lease heartbeat then runs on a thread of its own (and keeps
   * renewing while an analysis holds the main thread); without it, the main thread renews.
   */
  databaseUrl?: string;
  /** How alerts are checked and delivered (allowed hosts, mail relay, …); defaults when absent. */
  alerts?: AlertSettings;
}
