import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

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

/**
 * Each lane's virtual time, for its fair share per tenant (`job-fairness.ts`): the tag of the job
 * started last in the lane's band. A new job is tagged after it, and after its tenant's own
 * queued and running jobs, so that a tenant with a burst queued waits its turn behind no one.
 */
export const queueVirtualTimes = pgTable(
  "queue_virtual_times",
  {
    /** The pg-boss schema of the lane (tests give each file a queue of its own). */
    queueSchema: text("queue_schema").notNull(),
    queue: text("queue").notNull(),
    /** `now` (on-demand work, event steps) or `daily` (always after every `now` job). */
    band: text("band").notNull(),
    virtualTime: bigint("virtual_time", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.queueSchema, t.queue, t.band] })],
);

/**
 * Multipart uploads a delivery started in an S3 inbox and has not yet completed or aborted: a
 * worker killed mid-upload leaves its parts billed and invisible in listings, and the inbox
 * policy grants no `s3:ListBucketMultipartUploads` to find them. The next attempt of the
 * execution, or maintenance once no attempt holding the lease can still use it, aborts them.
 */
export const openMultipartUploads = pgTable(
  "open_multipart_uploads",
  {
    uploadId: text("upload_id").primaryKey(),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    /** The bucket's region, and its expected owner when configured: what an abort is sent with. */
    region: text("region").notNull(),
    expectedBucketOwner: text("expected_bucket_owner"),
    executionId: text("execution_id").notNull(),
    attempt: integer("attempt").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("open_multipart_uploads_execution_idx").on(t.executionId)],
);
