export { BaseConfig, parseConfig } from "./config.ts";
export { loadOperatorKey } from "./operator-key.ts";
export { openServiceDatabase, type StartedDatabase, startDatabase } from "./start-database.ts";
