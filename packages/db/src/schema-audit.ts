import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every state-changing request, per tenant (a partner ID, a direct customer's ID, or `operator`),
 * chained by hash: `hash` covers the event's fields and `previous_hash`, the hash of the tenant's
 * event before it. No route updates or deletes a row; only retention prunes, and records it.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tenant: text("tenant").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    /** The key that acted; null for the operator and for Sightline itself. */
    keyId: text("key_id"),
    actorName: text("actor_name").notNull(),
    /** `PUT /partner/{partnerId}`, or a word for what Sightline did (`audit.pruned`). */
    action: text("action").notNull(),
    /** The operation's ID (`putPartner`). */
    route: text("route").notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    status: integer("status").notNull(),
    requestId: text("request_id"),
    changes: jsonb("changes").$type<Record<string, unknown>>().notNull(),
    previousHash: text("previous_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    index("audit_events_tenant_id_idx").on(t.tenant, t.id.desc()),
    index("audit_events_at_idx").on(t.at),
    index("audit_events_tenant_key_idx")
      .on(t.tenant, t.keyId, t.id.desc())
      .where(sql`key_id is not null`),
  ],
);
