export { type AnalyzeCommand, runAnalyze } from "./analyze-command.ts";
export { type AuthorizeCommand, runAuthorize } from "./authorize-command.ts";
export { loadSnapshots } from "./load-snapshots.ts";
export { writeRows } from "./write-rows.ts";
