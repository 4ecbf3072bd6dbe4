import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

export const partners = pgTable("partners", {
  partnerId: text("partner_id").primaryKey(),
  configs: jsonb("configs").$type<Record<string, unknown>>().notNull().default({}),
  awsEncryptionKeyId: text("aws_encryption_key_id"),
  deliveryDestinations: jsonb("delivery_destinations")
    .$type<Record<string, unknown>>()
    .notNull()
    .default({}),
  ...timestamps,
});

/** One sequence for every partner: a number, once drawn, is never handed out again. */
export const customerNumberSeq = pgSequence("customer_number_seq", { startWith: 1 });

export const partnerCustomers = pgTable(
  "partner_customers",
  {
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId, { onDelete: "cascade" }),
    partnerCustomerId: text("partner_customer_id").notNull(),
    customerNumber: bigint("customer_number", { mode: "number" })
      .notNull()
      .default(sql`nextval('customer_number_seq')`),
    customerId: text("customer_id")
      .notNull()
      .generatedAlwaysAs(sql`partner_id || '-' || lpad(customer_number::text, 12, '0')`),
    subscriptionPlanName: text("subscription_plan_name").notNull(),
    deliveryDestinations: jsonb("delivery_destinations").$type<unknown[]>().notNull(),
    featureFlags: jsonb("feature_flags").$type<Record<string, boolean>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.partnerCustomerId] }),
    uniqueIndex("partner_customers_customer_id_key").on(t.customerId),
    uniqueIndex("partner_customers_customer_number_key").on(t.customerNumber),
  ],
);

export const monitoredAccounts = pgTable(
  "monitored_accounts",
  {
    partnerId: text("partner_id").notNull(),
    partnerCustomerId: text("partner_customer_id").notNull(),
    accountId: text("account_id").notNull(),
    provider: text("provider").notNull(),
    auditorAuthMethod: text("auditor_auth_method").notNull(),
    auditorAuthConfig: jsonb("auditor_auth_config").$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.partnerCustomerId, t.accountId] }),
    foreignKey({
      name: "monitored_accounts_partner_customer_fk",
      columns: [t.partnerId, t.partnerCustomerId],
      foreignColumns: [partnerCustomers.partnerId, partnerCustomers.partnerCustomerId],
    }).onDelete("cascade"),
  ],
);

export const directCustomers = pgTable("direct_customers", {
  customerId: text("customer_id").primaryKey(),
  name: text("name"),
  ...timestamps,
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the key, hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    partnerId: text("partner_id"),
    customerId: text("customer_id").references(() => directCustomers.customerId, {
      onDelete: "cascade",
    }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_key").on(t.keyHash),
    index("api_keys_partner_id_idx").on(t.partnerId),
    check("api_keys_one_scope", sql`(partner_id is null) <> (customer_id is null)`),
  ],
);
