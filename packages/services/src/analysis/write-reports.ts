import path from "node:path";
import type { CollectionMetadata } from "@sightline/aws";
import { getAwsCapabilityMap } from "@sightline/capabilities";
import {
  type AccessGraph,
  type AccountAnalysis,
  type AccountModel,
  iamAdminPaths,
  reportedAccessPaths,
} from "@sightline/engine";
import {
  AUDIT_WORKBOOK_TYPE,
  createReportContext,
  fullRowFormats,
  openAuditWorkbook,
  principalAccessReportRows,
  principalReportRows,
  type ReportFormat,
  resourceAccessPathRows,
  resourceAccessReportRows,
  resourceReportRows,
  type WriteReportOptions,
  type WrittenReport,
  type WrittenWorkbookFile,
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
  /** Also k9's `resource-access-audit` workbook, its sheets written in the same passes. */
  workbook?: boolean;
}): Promise<{ reports: WrittenReport[]; workbook?: WrittenWorkbookFile }> {
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
  const workbook = input.workbook
    ? await openAuditWorkbook(path.join(dir, `${AUDIT_WORKBOOK_TYPE}.xlsx`), {
        analysisTime: input.analysisTime,
        summary: {
          account: metadata.accountId,
          principals: analysis.principals.length,
          iamAdmins: analysis.principals.filter((p) => p.iamAdmin !== "no").length,
          resources: count(allResources(analysis, metadata)),
        },
        capabilityMap: getAwsCapabilityMap(),
      })
    : undefined;
  // k9's four CSVs (and sheets) are k9's in form; the other formats carry Sightline's full rows.
  const options = { dir, formats, csvDialect: "k9" as const, ...(workbook ? { workbook } : {}) };
  try {
    const reports = await writeAll(options);
    if (!workbook) return { reports };
    return { reports, workbook: { ...(await workbook.finish()), format: "xlsx" } };
  } catch (error) {
    await workbook?.abort();
    throw error;
  }

  async function writeAll(options: WriteReportOptions): Promise<WrittenReport[]> {
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
}

function count(items: Iterable<unknown>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}
