export * from "./access-changes.ts";
export * from "./account-context.ts";
export * from "./account-events.ts";
export * from "./account-snapshots.ts";
export * from "./alert-deliveries.ts";
export * from "./alert-destinations.ts";
export * from "./analysis-result-inserts.ts";
export * from "./analysis-result-steps.ts";
export * from "./analysis-results.ts";
export * from "./api-keys.ts";
export { auditEventHash, type ChainedFields, GENESIS_HASH } from "./audit-chain.ts";
export * from "./audit-events.ts";
export * from "./audit-retention.ts";
export * from "./audit-states.ts";
export {
  type AuditorRole,
  auditorRoleOf,
  listSharedAuditorRoles,
  type SharedAuditorRole,
} from "./auditor-roles.ts";
export { type ChangeFeed, type ChangeHandlers, listenForChanges } from "./change-feed.ts";
export {
  type CreateDbOptions,
  createDb,
  type Database,
  type DbHandle,
  type Executor,
} from "./client.ts";
export * from "./customer-accounts.ts";
export { isDatabaseUnavailable } from "./database-unavailable.ts";
export * from "./delivery-verifications.ts";
export * from "./direct-customers.ts";
export {
  type EmbeddedPostgresOptions,
  type RunningPostgres,
  runningEmbeddedPostgresUrl,
  startEmbeddedPostgres,
} from "./embedded.ts";
export * from "./event-sources.ts";
export * from "./execution-credentials.ts";
export * from "./executions.ts";
export * from "./findings.ts";
export * from "./job-fairness.ts";
export * from "./job-leases.ts";
export { runMigrations } from "./migrate.ts";
export * from "./monitored-accounts.ts";
export * from "./multipart-uploads.ts";
export * from "./oem-grants.ts";
export * from "./organization-members.ts";
export * from "./partner-customers.ts";
export * from "./partners.ts";
export * from "./queue-status.ts";
export { rawQuery, sqlExecutorOf } from "./raw-query.ts";
export * from "./review-settings.ts";
export { openServiceDatabase, type StartedDatabase, startDatabase } from "./start-database.ts";
