import type { ResourceAccessSummary } from "@sightline/engine";
import type { ResourceAccessReportRow } from "../columns/report-columns.ts";
import { nameFromArn, type ReportContext } from "./report-context.ts";

const NONE: readonly never[] = Object.freeze([]);

/**
 * One row of the resource-access-summaries report. `principal_arn` holds the principal as the
 * engine names it: an ARN, or for principals that have none a 12-digit account, `*`, a service
 * principal or a federated provider; `principal_name` is the analysed principal's name, else the
 * last element of that ARN or the identifier itself.
 */
export function buildResourceAccessRow(
  summary: ResourceAccessSummary,
  context: ReportContext,
): ResourceAccessReportRow {
  const resource = context.resource(summary.resourceArn);
  return {
    analysis_time: context.analysisTime,
    service_name: summary.service,
    resource_name: resource.name,
    resource_arn: summary.resourceArn,
    access_capability: summary.capability,
    principal_type: summary.principalType,
    principal_name: context.principal(summary.principal)?.name ?? nameFromArn(summary.principal),
    principal_arn: summary.principal,
    resource_tag_confidentiality: resource.wellKnownTags.confidentiality ?? "",
    resource_type: summary.resourceType,
    principal_in_account: summary.inAccount,
    conditional: summary.conditional,
    granted_by: summary.grantedBy ?? NONE,
  };
}

export function* resourceAccessReportRows(
  summaries: Iterable<ResourceAccessSummary>,
  context: ReportContext,
): Generator<ResourceAccessReportRow> {
  for (const summary of summaries) yield buildResourceAccessRow(summary, context);
}
