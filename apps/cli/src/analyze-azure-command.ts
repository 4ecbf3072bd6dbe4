import { writeFile } from "node:fs/promises";
import path from "node:path";
import { analyzeAzureSubscription } from "@sightline/engine/azure";
import { type ReportFormat, writeAzureReports } from "@sightline/reports";
import { type AzureFiles, loadAzureSnapshot } from "./load-azure-snapshot.ts";

export interface AnalyzeAzureCommand extends AzureFiles {
  formats: readonly ReportFormat[];
  out: string;
  analysisTime?: Date;
  progress: (message: string) => void;
}

/**
 * `sightline analyze` on an Azure subscription: the four k9 reports (principals with their
 * type, the subscription and the scopes holding role assignments, and the access summaries)
 * and `issues.json`. Azure has no role chains: no resource-access-paths report.
 */
export async function runAnalyzeAzure(
  command: AnalyzeAzureCommand,
): Promise<Record<string, number>> {
  const analysisTime = command.analysisTime ?? new Date();
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const snapshot = await loadAzureSnapshot(command);
  // Counted before the engine reads the snapshot: a list that is not one is its error to name.
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  command.progress(
    `read ${count(snapshot.roleAssignments)} role assignments and ${count(snapshot.roleDefinitions)} role definitions; analysing`,
  );
  const analysis = analyzeAzureSubscription(snapshot);
  command.progress(
    `analysed ${analysis.stats.principals} principals in ${analysis.stats.policySets} assignment sets after ${elapsed()}`,
  );
  const counts: Record<string, number> = {};
  await writeAzureReports({
    snapshot,
    analysis,
    analysisTime,
    dir: command.out,
    formats: command.formats,
    onReport: (report) => {
      counts[report.type] = report.rows;
      command.progress(`${report.type}: ${report.rows} rows written after ${elapsed()}`);
    },
  });
  const issues = analysis.issues;
  await writeFile(path.join(command.out, "issues.json"), `${JSON.stringify(issues, null, 2)}\n`);
  counts.issues = issues.length;
  if (issues.length > 0) command.progress(`${issues.length} input issue(s): see issues.json`);
  return counts;
}
