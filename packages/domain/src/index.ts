export * from "./api-key.ts";
export * from "./capability-map.ts";
export * from "./errors.ts";
export * from "./identifiers.ts";
export * from "./monitored-account.ts";
export * from "./partner.ts";
export * from "./partner-customer.ts";
