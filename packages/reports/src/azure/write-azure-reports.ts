import type { AccountAnalysis, AzureSnapshot } from "@sightline/engine";
import { azureResourceMetadata } from "@sightline/engine/azure";
import { createReportContext } from "../rows/report-context.ts";
import type { ReportFiles } from "../writers/hashing-file.ts";
import { writeK9Reports } from "../writers/write-k9-reports.ts";
import type { ReportFormat, WrittenReport } from "../writers/write-report.ts";

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
  /** Where the files are created (default: the local disk). */
  files?: ReportFiles;
}): Promise<WrittenReport[]> {
  const { analysis, onReport } = input;
  const context = createReportContext({
    analysisTime: input.analysisTime,
    principals: analysis.principals,
    resourceMetadata: azureResourceMetadata(input.snapshot, analysis.resources),
  });
  const options = {
    dir: input.dir,
    formats: input.formats,
    ...(input.files ? { files: input.files } : {}),
  };
  return writeK9Reports(analysis, context, options, onReport ? { onReport } : {});
}
