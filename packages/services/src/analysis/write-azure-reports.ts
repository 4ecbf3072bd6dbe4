import type { AzureCollectionMetadata } from "@sightline/azure";
import type { AccountAnalysis, AzureSnapshot } from "@sightline/engine";
import {
  createReportContext,
  principalAccessReportRows,
  principalReportRows,
  type ReportFormat,
  type ResourceMetadata,
  resourceAccessReportRows,
  resourceReportRows,
  type WrittenReport,
  writeReport,
} from "@sightline/reports";

/**
 * The four k9 reports of an Azure subscription's analysis, in the AWS reports' layouts: the
 * principals, the scopes and resources with assignments of their own, who holds which
 * capability where. Resource names and tags come from the collected ARM inventory. The access
 * paths report is AWS's (chains of assumed roles) and is not written for Azure.
 */
export async function writeAzureReports(input: {
  snapshot: AzureSnapshot;
  analysis: AccountAnalysis;
  metadata: AzureCollectionMetadata;
  analysisTime: Date;
  dir: string;
  formats: readonly ReportFormat[];
}): Promise<WrittenReport[]> {
  const { snapshot, analysis, dir, formats } = input;
  const resourceMetadata = new Map<string, ResourceMetadata>();
  for (const resource of [...(snapshot.resourceGroups ?? []), ...(snapshot.resources ?? [])])
    resourceMetadata.set(resource.id, {
      ...(resource.name ? { name: resource.name } : {}),
      tags: resource.tags ?? {},
    });
  const context = createReportContext({
    analysisTime: input.analysisTime,
    principals: analysis.principals,
    resourceMetadata,
  });
  const options = { dir, formats };
  return [
    await writeReport("principals", principalReportRows(analysis.principals, context), options),
    await writeReport("resources", resourceReportRows(analysis.resources, context), options),
    await writeReport(
      "principal-access-summaries",
      principalAccessReportRows(analysis.principalAccessSummaries(), context),
      options,
    ),
    await writeReport(
      "resource-access-summaries",
      resourceAccessReportRows(analysis.resourceAccessSummaries(), context),
      options,
    ),
  ];
}
