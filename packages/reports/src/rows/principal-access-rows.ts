import type { PrincipalAccessSummary } from "@sightline/engine";
import type { PrincipalAccessReportRow } from "../columns/report-columns.ts";
import type { ReportContext } from "./report-context.ts";

export interface PrincipalAccessRowOptions {
  /**
   * The account's collected resources (buckets, keys, roles) that a grant's ARN pattern covers,
   * each written as a row of its own so that "who can read bucket X" is a filter on
   * `resource_arn`. Without it, or when it finds none, the row names the pattern itself.
   */
  expandResourcePattern?: (pattern: string, summary: PrincipalAccessSummary) => readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);
const NO_TAGS: Readonly<Record<string, string>> = Object.freeze({});

export function buildPrincipalAccessRow(
  summary: PrincipalAccessSummary,
  resourceArn: string,
  context: ReportContext,
): PrincipalAccessReportRow {
  return {
    analysis_time: context.analysisTime,
    principal_name: summary.principalName,
    principal_arn: summary.principalArn,
    principal_type: summary.principalType,
    principal_tags: context.principal(summary.principalArn)?.tags ?? NO_TAGS,
    service_name: summary.service,
    access_capability: summary.capability,
    resource_arn: resourceArn,
    conditional: summary.conditional,
    except_resources: summary.exceptResources,
    resource_pattern: summary.resourceArn,
    granted_by: summary.grantedBy ?? NONE,
    except_resources_this_scope_only: summary.exceptResourcesThisScopeOnly ?? NONE,
  };
}

/** Rows of the principal-access-summaries report, one summary at a time. */
export function* principalAccessReportRows(
  summaries: Iterable<PrincipalAccessSummary>,
  context: ReportContext,
  options: PrincipalAccessRowOptions = {},
): Generator<PrincipalAccessReportRow> {
  const expand = options.expandResourcePattern;
  for (const summary of summaries) {
    const covered =
      expand && summary.resourceArn !== "" ? expand(summary.resourceArn, summary) : [];
    if (covered.length === 0) yield buildPrincipalAccessRow(summary, summary.resourceArn, context);
    for (const resourceArn of covered) yield buildPrincipalAccessRow(summary, resourceArn, context);
  }
}
