export { type AnalyzeAzureCommand, runAnalyzeAzure } from "./analyze-azure-command.ts";
export { type AnalyzeCommand, runAnalyze } from "./analyze-command.ts";
export { type AuthorizeCommand, runAuthorize } from "./authorize-command.ts";
export { type AzureFiles, loadAzureSnapshot } from "./load-azure-snapshot.ts";
export { loadSnapshots } from "./load-snapshots.ts";
export { findPaths, type PathsCommand, writePathLines } from "./paths-command.ts";
export { runSnapshotImport, type SnapshotImportCommand } from "./snapshot-import-command.ts";
