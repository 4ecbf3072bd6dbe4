import { type AccountAnalysis, type AzureSnapshot, azureResourceMetadata } from "@sightline/engine";
import { principalAccessReportRows } from "../rows/principal-access-rows.ts";
import { principalReportRows } from "../rows/principal-rows.ts";
import { createReportContext } from "../rows/report-context.ts";
import { resourceAccessReportRows } from "../rows/resource-access-rows.ts";
import { resourceReportRows } from "../rows/resource-rows.ts";
import { type ReportFormat, type WrittenReport, writeReport } from "../writers/write-report.ts";

/**
 * The four k9 reports of an Azure subscription's analysis, in the AWS reports' layouts: the
 * principals, the scopes holding assignments of their own, and who holds which capability
 * where. Names and tags of scopes come from the snapshot's ARM inventory. Azure has no role
 * chains: no resource-access-paths report. Shared by the worker and `sightline analyze`.
 */
export async function writeAzureReports(input: {
  snapshot: Pick<AzureSnapshot, "resourceGroups" | "resources">;
  analysis: AccountAnalysis;
  analysisTime: Date;
  dir: string;
  formats: readonly ReportFormat[];
  /** Called as each report is finished (progress output). */
  onReport?: (report: WrittenReport) => void;
}): Promise<WrittenReport[]> {
  const { analysis, onReport } = input;
  const context = createReportContext({
    analysisTime: input.analysisTime,
    principals: analysis.principals,
    resourceMetadata: azureResourceMetadata(input.snapshot, analysis.resources),
  });
  const options = { dir: input.dir, formats: input.formats };
  const reports: WrittenReport[] = [];
  const done = (report: WrittenReport) => {
    reports.push(report);
    onReport?.(report);
  };
  done(await writeReport("principals", principalReportRows(analysis.principals, context), options));
  done(await writeReport("resources", resourceReportRows(analysis.resources, context), options));
  done(
    await writeReport(
      "principal-access-summaries",
      principalAccessReportRows(analysis.principalAccessSummaries(), context),
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
