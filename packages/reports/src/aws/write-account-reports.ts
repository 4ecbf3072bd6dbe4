import { mkdir } from "node:fs/promises";
import path from "node:path";
import { getAwsCapabilityMap } from "@sightline/capabilities";
import {
  type AccessGraph,
  type AccountAnalysis,
  type AccountModel,
  buildAccessGraph,
  iamAdminPaths,
  reportedAccessPaths,
} from "@sightline/engine";
import { AUDIT_WORKBOOK_TYPE, type WrittenWorkbookFile } from "../keys.ts";
import { fullRowFormats } from "../report-formats.ts";
import { createReportContext } from "../rows/report-context.ts";
import { resourceAccessPathRows } from "../rows/resource-access-path-rows.ts";
import { openAuditWorkbook } from "../workbook/audit-workbook.ts";
import type { ReportFiles } from "../writers/hashing-file.ts";
import { writeK9Reports } from "../writers/write-k9-reports.ts";
import { type ReportFormat, type WrittenReport, writeReport } from "../writers/write-report.ts";
import { resourceExpander } from "./expand-resources.ts";
import { type AccountReportMetadata, allResources, reportInputOf } from "./report-input.ts";

export interface AccountReportsInput {
  model: AccountModel;
  analysis: AccountAnalysis;
  /**
   * The model's access graph. When omitted it is built here and let go once the access paths
   * are written, before k9's reports: the large account's graph (60 MB) is not held while the
   * 5.6 M rows of the others are written.
   */
  graph?: AccessGraph;
  metadata: AccountReportMetadata;
  analysisTime: Date;
  dir: string;
  formats: readonly ReportFormat[];
  /** Also k9's `resource-access-audit` workbook, its sheets written in the same passes. */
  workbook?: boolean;
  /** Called as each report is finished (progress output). */
  onReport?: (report: WrittenReport) => void;
  /** Where the files are created (default: the local disk). */
  files?: ReportFiles;
}

/**
 * The reports of an AWS account's analysis, streamed to files in `dir` in every format asked
 * for: k9's four, whose principal-access rows name the collected resources (buckets, keys,
 * roles) a grant covers and whose principals name the way to an IAM admin, and the access paths
 * to the account's admin roles and to its roles open to other accounts (Sightline's full-row
 * formats only). Shared by the worker and `sightline analyze`, so both write the same files.
 */
export async function writeAccountReports(
  input: AccountReportsInput,
): Promise<{ reports: WrittenReport[]; workbook?: WrittenWorkbookFile }> {
  const { model, analysis, metadata, dir, formats } = input;
  const files = input.files ? { files: input.files } : {};
  let graph: AccessGraph | undefined = input.graph ?? buildAccessGraph(model);
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
  // The access paths first: the graph is not needed after them.
  await mkdir(dir, { recursive: true });
  const paths = await writeReport(
    "resource-access-paths",
    resourceAccessPathRows(reportedAccessPaths(graph, model, analysis.principals), context),
    { dir, formats: fullRowFormats(formats), ...files },
  );
  graph = undefined;
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
        ...files,
      })
    : undefined;
  // k9's four CSVs (and sheets) are k9's in form; the other formats carry Sightline's full rows.
  const options = {
    dir,
    formats,
    csvDialect: "k9" as const,
    ...(workbook ? { workbook } : {}),
    ...files,
  };
  try {
    const reports = await writeK9Reports(analysis, context, options, {
      resources: allResources(analysis, metadata),
      expandResourcePattern,
      ...(input.onReport ? { onReport: input.onReport } : {}),
    });
    // Listed after k9's four, as before the paths were written first.
    input.onReport?.(paths);
    reports.push(paths);
    if (!workbook) return { reports };
    return { reports, workbook: { ...(await workbook.finish()), format: "xlsx" } };
  } catch (error) {
    await workbook?.abort();
    throw error;
  }
}

function count(items: Iterable<unknown>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}
