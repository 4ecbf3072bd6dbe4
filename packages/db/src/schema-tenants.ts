import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { bytea, timestamps } from "./schema-columns.ts";

export const partners = pgTable("partners", {
  partnerId: text("partner_id").primaryKey(),
  configs: jsonb("configs").$type<Record<string, unknown>>().notNull().default({}),
  awsEncryptionKeyId: text("aws_encryption_key_id"),
  deliveryDestinations: jsonb("delivery_destinations")
    .$type<Record<string, unknown>>()
    .notNull()
    .default({}),
  /**
   * When the operator made this partner an OEM integration (admin route); null: not one. Only
   * this grant opens `cvs`: the partner's own `configs.oemIntegrationEnabled` is no authority.
   */
  oemGrantedAt: timestamp("oem_granted_at", { withTimezone: true, mode: "date" }),
  ...timestamps,
});

/**
 * OEM flags that partners had set themselves before the operator's grant existed, cleared by
 * migration 0003: logged at every start until the operator grants the partner (or not).
 */
export const oemRevocations = pgTable("oem_revocations", {
  partnerId: text("partner_id").primaryKey(),
  /** The partner's `cvs` accounts at the time, `<partnerCustomerId>/<accountId>`. */
  cvsAccounts: jsonb("cvs_accounts").$type<string[]>().notNull().default([]),
  revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * The proof that an owner (a partner or a direct customer) controls the S3 bucket it names:
 * Sightline issues `token`, the owner puts it in the bucket, Sightline reads it back before the
 * first delivery. A destination that changes (bucket or expected owner) gets a new, unproven row.
 */
export const deliveryVerifications = pgTable("delivery_verifications", {
  /** A partner ID (`P…`) or a direct customer ID (`C…`). */
  ownerId: text("owner_id").primaryKey(),
  bucketName: text("bucket_name").notNull(),
  expectedBucketOwner: text("expected_bucket_owner"),
  token: text("token").notNull(),
  provenAt: timestamp("proven_at", { withTimezone: true, mode: "date" }),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
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
    index("monitored_accounts_auditor_role_idx").on(
      sql`lower(${t.auditorAuthConfig}->>'roleArn')`,
      sql`(${t.auditorAuthConfig}->>'externalId')`,
    ),
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
  subscriptionPlanName: text("subscription_plan_name").notNull().default("Starter"),
  awsEncryptionKeyId: text("aws_encryption_key_id"),
  deliveryDestinations: jsonb("delivery_destinations")
    .$type<Record<string, unknown>>()
    .notNull()
    .default({}),
  featureFlags: jsonb("feature_flags").$type<Record<string, boolean>>().notNull().default({}),
  ...timestamps,
});

/** Accounts a direct customer monitors (partner customers' are in monitored_accounts). */
export const customerAccounts = pgTable(
  "customer_accounts",
  {
    customerId: text("customer_id")
      .notNull()
      .references(() => directCustomers.customerId, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    provider: text("provider").notNull(),
    auditorAuthMethod: text("auditor_auth_method").notNull(),
    auditorAuthConfig: jsonb("auditor_auth_config").$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.accountId] }),
    index("customer_accounts_auditor_role_idx").on(
      sql`lower(${t.auditorAuthConfig}->>'roleArn')`,
      sql`(${t.auditorAuthConfig}->>'externalId')`,
    ),
  ],
);

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
    /** Keys existing before names were asked for are named `key <id>` by the migration. */
    name: text("name").notNull(),
    /** `read`, `trigger`, `configure`, `keys` (the API's "scopes"). */
    permissions: text("permissions")
      .array()
      .notNull()
      .default(sql`'{read,trigger,configure,keys}'::text[]`),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** Soft revocation: the row stays for the audit trail; the key no longer authenticates. */
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /** Written at most once a minute per key and process, not per request. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_key").on(t.keyHash),
    index("api_keys_partner_id_idx").on(t.partnerId),
    check("api_keys_one_scope", sql`(partner_id is null) <> (customer_id is null)`),
  ],
);

/**
 * One analysis of one account. `customer_id` is the direct customer's ID or the partner
 * customer's mapped ID; at most one execution per account is queued or running at a time.
 */
export const executions = pgTable(
  "executions",
  {
    executionId: text("execution_id").primaryKey(),
    kind: text("kind").notNull(),
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    partnerId: text("partner_id"),
    partnerCustomerId: text("partner_customer_id"),
    provider: text("provider").notNull(),
    authMethod: text("auth_method").notNull(),
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    reportKeys: jsonb("report_keys").$type<string[]>().notNull().default([]),
    warnings: jsonb("warnings")
      .$type<{ code: string; message: string; resourceArn?: string }[]>()
      .notNull()
      .default([]),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    /**
     * The minute of the dated report keys (`YYYY-MM-DD-HHMM`), chosen once at the first
     * delivery: the analysis's minute, or the next one no other execution of the account has.
     */
    reportMinute: timestamp("report_minute", { withTimezone: true, mode: "date" }),
    /** What a running attempt is doing (`collecting`, `analysing`, …), for a person watching. */
    stage: text("stage"),
    /** Its progress where countable: `{ done, total, unit }`. */
    progress: jsonb("progress").$type<{ done: number; total: number; unit: string }>(),
  },
  (t) => [
    index("executions_account_created_idx").on(t.customerId, t.accountId, t.createdAt.desc()),
    // Full analyses and event steps each one at a time per account; they never run together
    // (an event step waits for the full analysis), but one may be queued behind the other.
    uniqueIndex("executions_one_active_per_account")
      .on(t.customerId, t.accountId)
      .where(sql`status in ('queued', 'running') and kind <> 'event'`),
    uniqueIndex("executions_one_active_event_step_per_account")
      .on(t.customerId, t.accountId)
      .where(sql`status in ('queued', 'running') and kind = 'event'`),
    uniqueIndex("executions_report_minute_per_account")
      .on(t.customerId, t.accountId, t.reportMinute)
      .where(sql`report_minute is not null`),
    check("executions_kind", sql`kind in ('ondemand', 'daily', 'event')`),
    check("executions_status", sql`status in ('queued', 'running', 'succeeded', 'failed')`),
  ],
);

/**
 * A caller's own STS credentials for one execution, only ever encrypted: AES-256-GCM under a
 * data key of its own, itself wrapped by the master key (local or KMS). Deleted once collected.
 */
export const executionCredentials = pgTable("execution_credentials", {
  executionId: text("execution_id")
    .primaryKey()
    .references(() => executions.executionId, { onDelete: "cascade" }),
  keySource: text("key_source").notNull(),
  masterKeyId: text("master_key_id").notNull(),
  wrappedKey: bytea("wrapped_key").notNull(),
  iv: bytea("iv").notNull(),
  ciphertext: bytea("ciphertext").notNull(),
  authTag: bytea("auth_tag").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** What collection found, gzip-compressed JSON as the engine consumes it; newest answers endpoint 12. */
export const accountSnapshots = pgTable(
  "account_snapshots",
  {
    executionId: text("execution_id")
      .primaryKey()
      .references(() => executions.executionId, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    collectedAt: timestamp("collected_at", { withTimezone: true, mode: "date" }).notNull(),
    data: bytea("data").notNull(),
    /**
     * The AWS organisation the account was in (`o-…`): what an SCP or RCP event of its management
     * account fans out by. '' when collection saw none; null for snapshots stored before it was kept.
     */
    organizationId: text("organization_id"),
  },
  (t) => [
    index("account_snapshots_account_idx").on(t.customerId, t.accountId, t.collectedAt.desc()),
  ],
);
