/**
 * The database schema (drizzle-kit reads this file): the tenants, accounts and executions; the
 * alerts; the stored results of analyses; the audit trail; the accounts' events; the job queue's
 * leases.
 */
export * from "./schema-alerts.ts";
export * from "./schema-audit.ts";
export * from "./schema-events.ts";
export * from "./schema-queue.ts";
export * from "./schema-results.ts";
export * from "./schema-tenants.ts";
