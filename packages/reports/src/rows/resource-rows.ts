import type { ResourceRow } from "@sightline/engine";
import type { ResourceReportRow } from "../columns/report-columns.ts";
import type { ReportContext } from "./report-context.ts";

/** One row of the resources report: a resource with a resource-based policy. */
export function buildResourceRow(row: ResourceRow, context: ReportContext): ResourceReportRow {
  const resource = context.resource(row.resourceArn);
  const tags = resource.wellKnownTags;
  return {
    analysis_time: context.analysisTime,
    resource_name: resource.name,
    resource_arn: row.resourceArn,
    resource_type: row.resourceType,
    resource_tag_business_unit: tags.business_unit ?? "",
    resource_tag_environment: tags.environment ?? "",
    resource_tag_owner: tags.owner ?? "",
    resource_tag_confidentiality: tags.confidentiality ?? "",
    resource_tag_integrity: tags.integrity ?? "",
    resource_tag_availability: tags.availability ?? "",
    resource_tags: resource.tags,
    resource_account_id: row.accountId ?? "",
    service_name: row.service,
    allows_any_principal: row.allowsAnyPrincipal,
  };
}

export function* resourceReportRows(
  rows: Iterable<ResourceRow>,
  context: ReportContext,
): Generator<ResourceReportRow> {
  for (const row of rows) yield buildResourceRow(row, context);
}
