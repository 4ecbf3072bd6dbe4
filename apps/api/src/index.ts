export { API_VERSION, createApp } from "./app.ts";
export type { AppDeps } from "./context.ts";
export { createLogger, type Logger, silentLogger } from "./logger.ts";
