import { writeFile } from "node:fs/promises";
import path from "node:path";
import { analyzeAccount, buildAccessGraph, createAccountModel } from "@sightline/engine";
import { type ReportFormat, type WrittenReport, writeAccountReports } from "@sightline/reports";
import { accountMetadataOf } from "./account-metadata.ts";
import {
  formatIamAdmin,
  formatPrincipalAccess,
  formatResourceAccess,
} from "./format-granted-by.ts";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";

export interface AnalyzeCommand extends SnapshotFiles {
  formats: readonly ReportFormat[];
  /** Also k9's `resource-access-audit.xlsx` workbook of the four reports (`--format xlsx`). */
  workbook?: boolean;
  out: string;
  /** The reports' `analysis_time`; the start of the command when omitted. */
  analysisTime?: Date;
  progress: (message: string) => void;
  /**
   * Principals (ARN or name) and resources (ARN) whose access to print, each row with the
   * policies that grant it (`--show`); `all` prints every row.
   */
  show?: readonly string[];
  /** Where the `show` lines go (stdout). */
  print?: (line: string) => void;
}

/**
 * `sightline analyze`: writes k9's four reports, the access paths to the accounts' admin roles
 * and to their roles open to other accounts, and the input issues into `out`. The reports are
 * written by the service's own `writeAccountReports`, so the files are those it delivers for
 * the same account (less what only collection reads: the credential report, tags, key aliases).
 */
export async function runAnalyze(command: AnalyzeCommand): Promise<Record<string, number>> {
  const analysisTime = command.analysisTime ?? new Date();
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  command.progress(`reading ${command.authorizationDetails.length} authorization details file(s)`);
  const snapshots = await loadSnapshots(command);
  const model = createAccountModel(snapshots);
  command.progress(
    `model built (${model.principals.size} principals) after ${elapsed()}; analysing`,
  );
  const analysis = analyzeAccount(model);
  command.progress(
    `analysed ${analysis.stats.principals} principals in ${analysis.stats.policySets} policy sets after ${elapsed()}`,
  );
  const graph = buildAccessGraph(model);
  command.progress(`access graph built after ${elapsed()}`);
  const counts: Record<string, number> = {};
  const { workbook } = await writeAccountReports({
    model,
    analysis,
    graph,
    metadata: accountMetadataOf(model, snapshots),
    analysisTime,
    dir: command.out,
    formats: command.formats,
    ...(command.workbook ? { workbook: true } : {}),
    onReport: (report: WrittenReport) => {
      counts[report.type] = report.rows;
      command.progress(`${report.type}: ${report.rows} rows written after ${elapsed()}`);
    },
  });
  if (workbook) command.progress(`${path.basename(workbook.path)} written after ${elapsed()}`);
  if (command.show && command.show.length > 0) {
    const print = command.print ?? ((line: string) => process.stdout.write(`${line}\n`));
    const wanted = new Set(command.show);
    const all = wanted.has("all");
    const principalWanted = (arn: string, name: string) =>
      all || wanted.has(arn) || wanted.has(name);
    for (const row of analysis.principals)
      if (row.iamAdmin !== "no" && principalWanted(row.principalArn, row.principalName))
        print(formatIamAdmin(row));
    for (const row of analysis.principalAccessSummaries())
      if (principalWanted(row.principalArn, row.principalName)) print(formatPrincipalAccess(row));
    for (const row of analysis.resourceAccessSummaries())
      if (all || wanted.has(row.resourceArn) || wanted.has(row.principal))
        print(formatResourceAccess(row));
  }
  const issues = analysis.issues;
  await writeFile(path.join(command.out, "issues.json"), `${JSON.stringify(issues, null, 2)}\n`);
  counts.issues = issues.length;
  if (issues.length > 0) command.progress(`${issues.length} input issue(s): see issues.json`);
  return counts;
}
