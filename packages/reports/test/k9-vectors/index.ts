/**
 * k9 Security compatibility vectors: what k9's own integrations (Datadog, Splunk, k9-cli, Athena)
 * expect of a report, each vector citing its source (`sources.ts`). `expectK9Compatible` and
 * `expectK9Layout` are the contract Sightline's delivered AWS reports must meet.
 */
export * from "./athena.ts";
export * from "./contract.ts";
export * from "./datadog.ts";
export * from "./k9-cli.ts";
export * from "./k9-format.ts";
export * from "./samples.ts";
export * from "./sources.ts";
export * from "./splunk.ts";
