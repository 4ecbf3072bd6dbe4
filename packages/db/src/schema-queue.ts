import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * A running job's lease: its worker renews it every few seconds; a worker that dies stops
 * renewing, and any worker's reaper puts the job back to run at once. The row is also the fence:
 * an attempt writes its results only while its job's row is still here (`holdsJobLease`).
 */
export const jobLeases = pgTable(
  "job_leases",
  {
    jobId: uuid("job_id").primaryKey(),
    queue: text("queue").notNull(),
    /** The pg-boss schema of the job (tests give each file a queue of its own). */
    queueSchema: text("queue_schema").notNull(),
    /** The worker process holding it (`host/pid/random`). */
    owner: text("owner").notNull(),
    /** The execution the job works on, if any: set back to `queued` when the lease is lost. */
    executionId: text("execution_id"),
    /** How many earlier attempts of this job lost their lease (carried over by the reaper). */
    losses: integer("losses").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    renewedAt: timestamp("renewed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("job_leases_expiry_idx").on(t.queueSchema, t.expiresAt)],
);

/** Leases lost so far, per queue, for `/readyz` and the logs (a counter, not a history). */
export const lostLeaseCounts = pgTable("lost_lease_counts", {
  queue: text("queue").primaryKey(),
  lost: integer("lost").notNull().default(0),
  lastLostAt: timestamp("last_lost_at", { withTimezone: true, mode: "date" })
    .notNull()
    .default(sql`now()`),
});
