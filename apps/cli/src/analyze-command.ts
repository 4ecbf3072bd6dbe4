import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  analyzeAccount,
  buildAccessGraph,
  createAccountModel,
  iamAdminPaths,
  reportedAccessPaths,
} from "@sightline/engine";
import {
  createReportContext,
  type PrincipalMetadata,
  principalAccessReportRows,
  principalReportRows,
  type ReportFormat,
  resourceAccessPathRows,
  resourceAccessReportRows,
  resourceReportRows,
  type WrittenReport,
  writeReport,
} from "@sightline/reports";
import {
  formatIamAdmin,
  formatPrincipalAccess,
  formatResourceAccess,
} from "./format-granted-by.ts";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";
import { roleLastUsed } from "./role-last-used.ts";

export interface AnalyzeCommand extends SnapshotFiles {
  formats: readonly ReportFormat[];
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

/** The roles' last use from the files, and each principal's shortest way to an IAM admin. */
function principalMetadataOf(
  lastUsed: Map<string, PrincipalMetadata>,
  adminPaths: ReadonlyMap<string, readonly string[]>,
): Map<string, PrincipalMetadata> {
  const metadata = new Map(lastUsed);
  for (const [arn, iamAdminPath] of adminPaths)
    metadata.set(arn, { ...metadata.get(arn), iamAdminPath });
  return metadata;
}

/**
 * `sightline analyze`: writes k9's four reports, the access paths to the accounts' admin roles
 * and to their roles open to other accounts (JSON Lines, and Parquet when asked: its rows nest
 * lists that CSV cannot hold), and the input issues into `out` — what the service delivers.
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
  const adminPaths = iamAdminPaths(graph, analysis.principals);
  command.progress(`access graph built after ${elapsed()}`);
  const context = createReportContext({
    analysisTime,
    principals: analysis.principals,
    principalMetadata: principalMetadataOf(roleLastUsed(snapshots), adminPaths),
  });
  // As the service delivers them: k9's CSVs in k9's form, Sightline's full rows in the others.
  const options = { formats: command.formats, dir: command.out, csvDialect: "k9" as const };
  const counts: Record<string, number> = {};
  const record = (report: WrittenReport) => {
    counts[report.type] = report.rows;
    command.progress(`${report.type}: ${report.rows} rows written after ${elapsed()}`);
  };
  record(
    await writeReport("principals", principalReportRows(analysis.principals, context), options),
  );
  record(await writeReport("resources", resourceReportRows(analysis.resources, context), options));
  const principalAccess = principalAccessReportRows(analysis.principalAccessSummaries(), context);
  record(await writeReport("principal-access-summaries", principalAccess, options));
  const resourceAccess = resourceAccessReportRows(analysis.resourceAccessSummaries(), context);
  record(await writeReport("resource-access-summaries", resourceAccess, options));
  const accessPaths = resourceAccessPathRows(
    reportedAccessPaths(graph, model, analysis.principals),
    context,
  );
  const pathFormats = command.formats.filter((format) => format !== "csv");
  record(
    await writeReport("resource-access-paths", accessPaths, {
      dir: command.out,
      formats: pathFormats.length > 0 ? pathFormats : ["jsonl"],
    }),
  );
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
