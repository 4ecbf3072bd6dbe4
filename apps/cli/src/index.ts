export { type AnalyzeCommand, runAnalyze } from "./analyze-command.ts";
export { type AuthorizeCommand, formatDecision, runAuthorize } from "./authorize-command.ts";
export { loadSnapshots } from "./load-snapshots.ts";
export { writeRows } from "./write-rows.ts";
