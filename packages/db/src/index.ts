export * from "./api-keys.ts";
export { type ChangeFeed, type ChangeHandlers, listenForChanges } from "./change-feed.ts";
export {
  type CreateDbOptions,
  createDb,
  type Database,
  type DbHandle,
  type Executor,
} from "./client.ts";
export * from "./direct-customers.ts";
export {
  type EmbeddedPostgresOptions,
  type RunningPostgres,
  startEmbeddedPostgres,
} from "./embedded.ts";
export { runMigrations } from "./migrate.ts";
export * from "./monitored-accounts.ts";
export * from "./partner-customers.ts";
export * from "./partners.ts";
