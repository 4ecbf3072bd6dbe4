import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamps } from "./schema-columns.ts";
import { directCustomers, partners } from "./schema-tenants.ts";

/**
 * Where a partner (for all its customers' accounts) or a direct customer is alerted of access
 * changes: a webhook, an email digest or its AWS Security Hub. A webhook's signing secret is kept
 * only sealed (AES-256-GCM under a data key wrapped by the master key).
 */
export const alertDestinations = pgTable(
  "alert_destinations",
  {
    destinationId: uuid("destination_id").primaryKey(),
    ownerKind: text("owner_kind").notNull(),
    partnerId: text("partner_id").references(() => partners.partnerId, { onDelete: "cascade" }),
    customerId: text("customer_id").references(() => directCustomers.customerId, {
      onDelete: "cascade",
    }),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    /** The kind's settings: `{ url }`, `{ recipients }` or `{ roleArn, externalId, region }`. */
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    /** A webhook's sealed secret (base64 fields); null for the other kinds. */
    secretEnvelope: jsonb("secret_envelope").$type<Record<string, string>>(),
    alertOn: text("alert_on").array().notNull(),
    /** Where the owner's last PUT listed it: GET answers in that order. */
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("alert_destinations_owner_name_key").on(
      sql`coalesce(${t.partnerId}, ${t.customerId})`,
      sql`lower(${t.name})`,
    ),
    index("alert_destinations_partner_idx").on(t.partnerId),
    index("alert_destinations_customer_idx").on(t.customerId),
    index("alert_destinations_role_idx")
      .on(sql`lower(${t.config}->>'roleArn')`)
      .where(sql`kind = 'securityhub'`),
    check(
      "alert_destinations_owner",
      sql`(owner_kind = 'partner' and partner_id is not null and customer_id is null) or (owner_kind = 'direct' and customer_id is not null and partner_id is null)`,
    ),
    check("alert_destinations_kind", sql`kind in ('webhook', 'email', 'securityhub')`),
  ],
);

/** One alert: the changes of one analysis sent to one destination, and how its delivery went. */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    alertId: text("alert_id").primaryKey(),
    destinationId: uuid("destination_id")
      .notNull()
      .references(() => alertDestinations.destinationId, { onDelete: "cascade" }),
    executionId: text("execution_id").notNull(),
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    provider: text("provider").notNull(),
    analysisTime: timestamp("analysis_time", { withTimezone: true, mode: "date" }).notNull(),
    changeIds: text("change_ids").array().notNull(),
    /** The `AccessChange`s the alert carries, as enqueued. */
    changes: jsonb("changes").$type<unknown[]>().notNull(),
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    index("alert_deliveries_destination_idx").on(t.destinationId, t.createdAt.desc()),
    check("alert_deliveries_status", sql`status in ('queued', 'delivered', 'failed')`),
  ],
);

/** A change once alerted to a destination: never enqueued to it again. */
export const alertChanges = pgTable(
  "alert_changes",
  {
    destinationId: uuid("destination_id")
      .notNull()
      .references(() => alertDestinations.destinationId, { onDelete: "cascade" }),
    changeId: text("change_id").notNull(),
    alertId: text("alert_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.destinationId, t.changeId] })],
);

/** Every attempt to deliver an alert: when, how it went, the HTTP status or the error. */
export const alertAttempts = pgTable(
  "alert_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    alertId: text("alert_id")
      .notNull()
      .references(() => alertDeliveries.alertId, { onDelete: "cascade" }),
    destinationId: uuid("destination_id")
      .notNull()
      .references(() => alertDestinations.destinationId, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    outcome: text("outcome").notNull(),
    status: integer("status"),
    error: text("error"),
  },
  (t) => [
    index("alert_attempts_destination_idx").on(t.destinationId, t.at.desc()),
    check("alert_attempts_outcome", sql`outcome in ('delivered', 'retrying', 'failed')`),
  ],
);
