import type { CollectionMetadata } from "@sightline/aws";
import {
  type AccessGraph,
  type AccountAnalysis,
  type AccountModel,
  iamAdminPaths,
  reportedAccessPaths,
} from "@sightline/engine";
import {
  createReportContext,
  fullRowFormats,
  principalAccessReportRows,
  principalReportRows,
  type ReportFormat,
  resourceAccessPathRows,
  resourceAccessReportRows,
  resourceReportRows,
  type WrittenReport,
  writeReport,
} from "@sightline/reports";
import { resourceExpander } from "./expand-resources.ts";
import { allResources, reportInputOf } from "./report-input.ts";

/**
 * The reports of one analysis, streamed to files in `dir` in every format asked for: k9's four,
 * whose principal-access rows name the collected resources (buckets, keys, roles) a grant covers
 * and whose principals name the way to an IAM admin, and the access paths to the account's
 * admin roles and to its roles open to other accounts (JSON Lines, and Parquet for hive).
 */
export async function writeReports(input: {
  model: AccountModel;
  analysis: AccountAnalysis;
  graph: AccessGraph;
  metadata: CollectionMetadata;
  analysisTime: Date;
  dir: string;
  formats: readonly ReportFormat[];
}): Promise<WrittenReport[]> {
  const { model, analysis, graph, metadata, dir, formats } = input;
  const adminPaths = iamAdminPaths(graph, analysis.principals);
  const context = createReportContext(
    reportInputOf(analysis, metadata, input.analysisTime, adminPaths),
  );
  const roles = analysis.principals
    .filter((p) => p.principalType === "IAMRole")
    .map((p) => p.principalArn);
  const expandResourcePattern = resourceExpander([
    ...Object.keys(metadata.buckets),
    ...Object.keys(metadata.keys),
    ...roles,
  ]);
  // k9's four CSVs are k9's in form; the other formats carry Sightline's full rows.
  const options = { dir, formats, csvDialect: "k9" as const };
  return [
    await writeReport("principals", principalReportRows(analysis.principals, context), options),
    await writeReport(
      "resources",
      resourceReportRows(allResources(analysis, metadata), context),
      options,
    ),
    await writeReport(
      "principal-access-summaries",
      principalAccessReportRows(analysis.principalAccessSummaries(), context, {
        expandResourcePattern,
      }),
      options,
    ),
    await writeReport(
      "resource-access-summaries",
      resourceAccessReportRows(analysis.resourceAccessSummaries(), context),
      options,
    ),
    await writeReport(
      "resource-access-paths",
      resourceAccessPathRows(reportedAccessPaths(graph, model, analysis.principals), context),
      { dir, formats: fullRowFormats(formats) },
    ),
  ];
}
