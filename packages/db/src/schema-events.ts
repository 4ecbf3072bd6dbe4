import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { bytea } from "./schema-columns.ts";

/**
 * A monitored account's event source: the hash of the token its EventBridge connection sends
 * (the token itself is shown once, by rotate), and counters of what arrived.
 */
export const eventSources = pgTable(
  "event_sources",
  {
    /** The execution-style customer ID: a direct customer's, or a partner customer's mapped one. */
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    provider: text("provider").notNull(),
    /** SHA-256 of the token; looked up by hash, so a token names its account. */
    tokenHash: bytea("token_hash").notNull(),
    tokenCreatedAt: timestamp("token_created_at", { withTimezone: true, mode: "date" }).notNull(),
    eventsReceived: bigint("events_received", { mode: "number" }).notNull().default(0),
    eventsApplied: bigint("events_applied", { mode: "number" }).notNull().default(0),
    eventsRefused: bigint("events_refused", { mode: "number" }).notNull().default(0),
    unknownEvents: bigint("unknown_events", { mode: "number" }).notNull().default(0),
    lastEventAt: timestamp("last_event_at", { withTimezone: true, mode: "date" }),
    lastAppliedAt: timestamp("last_applied_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.accountId] }),
    uniqueIndex("event_sources_token_hash_key").on(t.tokenHash),
  ],
);

/**
 * Events received and not yet applied (and, for a day, those applied: a retried delivery of the
 * same event ID is recognised). The event job reads the pending ones of its account, so that a
 * burst coalesced into one job loses none of them.
 */
export const accountEvents = pgTable(
  "account_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    provider: text("provider").notNull(),
    /** CloudTrail's `eventID` (Azure: the Event Grid event's `id`). */
    eventId: text("event_id").notNull(),
    eventName: text("event_name").notNull(),
    eventTime: timestamp("event_time", { withTimezone: true, mode: "date" }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    /** What the event asks to read again (`AwsEventTarget[]`); null for an unknown event. */
    targets: jsonb("targets").$type<Record<string, unknown>[]>(),
    /** `pending` until a step applies it (`applied`), or `unknown` (counted, triggers nothing). */
    status: text("status").notNull(),
    executionId: text("execution_id"),
  },
  (t) => [
    uniqueIndex("account_events_event_id_key").on(t.customerId, t.accountId, t.eventId),
    index("account_events_pending_idx")
      .on(t.customerId, t.accountId, t.seq)
      .where(sql`status = 'pending'`),
    index("account_events_received_idx").on(t.receivedAt),
  ],
);
