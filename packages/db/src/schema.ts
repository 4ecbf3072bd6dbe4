import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  customType,
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
  uuid,
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_key").on(t.keyHash),
    index("api_keys_partner_id_idx").on(t.partnerId),
    check("api_keys_one_scope", sql`(partner_id is null) <> (customer_id is null)`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

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
  },
  (t) => [
    index("executions_account_created_idx").on(t.customerId, t.accountId, t.createdAt.desc()),
    uniqueIndex("executions_one_active_per_account")
      .on(t.customerId, t.accountId)
      .where(sql`status in ('queued', 'running')`),
    uniqueIndex("executions_report_minute_per_account")
      .on(t.customerId, t.accountId, t.reportMinute)
      .where(sql`report_minute is not null`),
    check("executions_kind", sql`kind in ('ondemand', 'daily')`),
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
  },
  (t) => [
    index("account_snapshots_account_idx").on(t.customerId, t.accountId, t.collectedAt.desc()),
  ],
);

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

/**
 * What later questions need of one successful analysis (the changes issue compares two of them;
 * the console and MCP read the newest), versioned with the engine and the capability map.
 * A principal's or resource's details and access are deflated JSON (`data`): 10,000 principals'
 * 5.6 M access rows take tens of MiB, not gigabytes of rows.
 */
export const analysisResults = pgTable(
  "analysis_results",
  {
    executionId: text("execution_id")
      .primaryKey()
      .references(() => executions.executionId, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    provider: text("provider").notNull(),
    analysisTime: timestamp("analysis_time", { withTimezone: true, mode: "date" }).notNull(),
    /** The engine's and the capability map's versions: results of another are re-analysed. */
    resultsVersion: text("results_version").notNull(),
    principals: integer("principals").notNull(),
    resources: integer("resources").notNull(),
    /** The analysis compared with; null for an account's first (its baseline). */
    previousExecutionId: text("previous_execution_id"),
    /** Null until compared. */
    changes: integer("changes"),
    findings: integer("findings"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("analysis_results_account_idx").on(t.customerId, t.accountId, t.analysisTime.desc()),
  ],
);

/** One principal of an analysis; `principal_arn` sorts in code-point order (`COLLATE "C"`). */
export const analysisPrincipals = pgTable(
  "analysis_principals",
  {
    executionId: text("execution_id")
      .notNull()
      .references(() => analysisResults.executionId, { onDelete: "cascade" }),
    principalArn: text("principal_arn").notNull(),
    principalName: text("principal_name").notNull(),
    principalType: text("principal_type").notNull(),
    iamAdmin: text("iam_admin").notNull(),
    /** Deflated JSON of what grants admin and the access: the same bytes while access is. */
    data: bytea("data").notNull(),
    /** Last use and credentials, which change from day to day without any access changing. */
    details: jsonb("details").notNull(),
  },
  (t) => [primaryKey({ columns: [t.executionId, t.principalArn] })],
);

/** One resource of an analysis with who can reach it; `resource_arn` sorts as `principal_arn`. */
export const analysisResources = pgTable(
  "analysis_resources",
  {
    executionId: text("execution_id")
      .notNull()
      .references(() => analysisResults.executionId, { onDelete: "cascade" }),
    resourceArn: text("resource_arn").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceName: text("resource_name").notNull(),
    confidentiality: text("confidentiality").notNull(),
    data: bytea("data").notNull(),
    /** Deflated JSON of who reaches it from outside its account: all a plain resource's comparison reads. */
    outside: bytea("outside").notNull(),
  },
  (t) => [primaryKey({ columns: [t.executionId, t.resourceArn] })],
);

/** The changes an analysis found against the account's previous one, in report order. */
export const accessChanges = pgTable(
  "access_changes",
  {
    executionId: text("execution_id")
      .notNull()
      .references(() => executions.executionId, { onDelete: "cascade" }),
    changeId: text("change_id").notNull(),
    seq: integer("seq").notNull(),
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    analysisTime: timestamp("analysis_time", { withTimezone: true, mode: "date" }).notNull(),
    kind: text("kind").notNull(),
    change: jsonb("change").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.executionId, t.changeId] }),
    index("access_changes_account_idx").on(t.customerId, t.accountId, t.analysisTime, t.seq),
  ],
);

/**
 * A finding of an account: its ID is stable while it holds (first and last seen), and it is
 * resolved by the first analysis where it no longer does.
 */
export const findings = pgTable(
  "findings",
  {
    customerId: text("customer_id").notNull(),
    accountId: text("account_id").notNull(),
    findingId: text("finding_id").notNull(),
    kind: text("kind").notNull(),
    subject: text("subject").notNull(),
    severity: text("severity").notNull(),
    status: text("status").notNull(),
    firstSeen: timestamp("first_seen", { withTimezone: true, mode: "date" }).notNull(),
    lastSeen: timestamp("last_seen", { withTimezone: true, mode: "date" }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    lastExecutionId: text("last_execution_id").notNull(),
    detail: jsonb("detail").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.accountId, t.findingId] }),
    index("findings_account_status_idx").on(t.customerId, t.accountId, t.status, t.lastSeen),
  ],
);

/** A customer's review settings (confidential tag values, finding thresholds); defaults when absent. */
export const reviewSettings = pgTable("review_settings", {
  customerId: text("customer_id").primaryKey(),
  settings: jsonb("settings").notNull(),
  ...timestamps,
});
