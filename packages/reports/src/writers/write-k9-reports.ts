import type { AccountAnalysis, ResourceRow } from "@sightline/engine";
import {
  type PrincipalAccessRowOptions,
  principalAccessReportRows,
} from "../rows/principal-access-rows.ts";
import { principalReportRows } from "../rows/principal-rows.ts";
import type { ReportContext } from "../rows/report-context.ts";
import { resourceAccessReportRows } from "../rows/resource-access-rows.ts";
import { resourceReportRows } from "../rows/resource-rows.ts";
import { type WriteReportOptions, type WrittenReport, writeReport } from "./write-report.ts";

export interface K9ReportsOptions extends PrincipalAccessRowOptions {
  /** The resources report's rows; the analysis's resources when omitted. */
  resources?: Iterable<ResourceRow>;
  /** Called as each report is finished (progress output). */
  onReport?: (report: WrittenReport) => void;
}

/**
 * k9's four reports of an analysis, one pass each in k9's order, for AWS and Azure alike: they
 * differ only in the resources listed and in the resources a grant's pattern covers.
 */
export async function writeK9Reports(
  analysis: AccountAnalysis,
  context: ReportContext,
  options: WriteReportOptions,
  more: K9ReportsOptions = {},
): Promise<WrittenReport[]> {
  const reports: WrittenReport[] = [];
  const done = (report: WrittenReport) => {
    reports.push(report);
    more.onReport?.(report);
  };
  const resources = more.resources ?? analysis.resources;
  const expand = more.expandResourcePattern
    ? { expandResourcePattern: more.expandResourcePattern }
    : {};
  done(await writeReport("principals", principalReportRows(analysis.principals, context), options));
  done(await writeReport("resources", resourceReportRows(resources, context), options));
  done(
    await writeReport(
      "principal-access-summaries",
      principalAccessReportRows(analysis.principalAccessSummaries(), context, expand),
      options,
    ),
  );
  done(
    await writeReport(
      "resource-access-summaries",
      resourceAccessReportRows(analysis.resourceAccessSummaries(), context),
      options,
    ),
  );
  return reports;
}
