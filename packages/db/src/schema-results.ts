import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { bytea, timestamps } from "./schema-columns.ts";
import { executions } from "./schema-tenants.ts";

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
    /**
     * Deflated JSON of what the resources' reach refers to by number (principals, capabilities,
     * lists of granting policies); null until every resource is stored.
     */
    reachDictionary: bytea("reach_dictionary"),
    /**
     * An event step's results keep the dictionary of those they were made from (copied as it is)
     * and add to it here: `{ base: { principals, capabilities, grants }, principals,
     * capabilities, grants }`, numbered after the base's lengths. Null for a whole analysis.
     */
    reachDictionaryAdded: jsonb("reach_dictionary_added"),
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
    /**
     * How many principals hold each risky capability on it (`{ "write-data": 12, … }`): what its
     * findings count, read without inflating its reach (an event step appends to it).
     */
    holders: jsonb("holders").$type<Record<string, number>>().notNull().default({}),
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
    /** What caused it, where known (an event step's events; the principal or policy it names). */
    cause: jsonb("cause"),
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
