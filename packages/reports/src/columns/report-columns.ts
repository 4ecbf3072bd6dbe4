import { column, type ReportColumn, type RowOf } from "./column.ts";

export const REPORT_TYPES = [
  "principals",
  "resources",
  "principal-access-summaries",
  "resource-access-summaries",
  "resource-access-paths",
  "access-changes",
  "findings",
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

// k9 Security's column names and order come first, unchanged, so that SIEM pipelines built for
// k9's reports keep working; Sightline's own columns are appended after them.

export const PRINCIPAL_COLUMNS = [
  column("analysis_time", "timestamp"),
  column("principal_name", "string"),
  column("principal_arn", "string"),
  column("principal_type", "string"),
  column("principal_is_iam_admin", "boolean"),
  column("principal_last_used", "timestamp"),
  column("principal_tag_business_unit", "string"),
  column("principal_tag_environment", "string"),
  column("principal_tag_used_by", "string"),
  column("principal_tags", "json"),
  column("password_last_used", "timestamp"),
  column("password_last_rotated", "timestamp"),
  column("password_state", "string"),
  column("access_key_1_last_used", "timestamp"),
  column("access_key_1_last_rotated", "timestamp"),
  column("access_key_1_state", "string"),
  column("access_key_2_last_used", "timestamp"),
  column("access_key_2_last_rotated", "timestamp"),
  column("access_key_2_state", "string"),
  column("principal_account_id", "string"),
  column("principal_is_iam_admin_conditional", "boolean"),
  column("group_arns", "json"),
  column("permissions_boundary_arn", "string"),
  column("iam_admin_path", "json"),
  column("iam_admin_granted_by", "json"),
  column("iam_admin_actions", "json"),
] as const;

export const RESOURCE_COLUMNS = [
  column("analysis_time", "timestamp"),
  column("resource_name", "string"),
  column("resource_arn", "string"),
  column("resource_type", "string"),
  column("resource_tag_business_unit", "string"),
  column("resource_tag_environment", "string"),
  column("resource_tag_owner", "string"),
  column("resource_tag_confidentiality", "string"),
  column("resource_tag_integrity", "string"),
  column("resource_tag_availability", "string"),
  column("resource_tags", "json"),
  column("resource_account_id", "string"),
  column("service_name", "string"),
  column("allows_any_principal", "boolean"),
] as const;

export const PRINCIPAL_ACCESS_COLUMNS = [
  column("analysis_time", "timestamp"),
  column("principal_name", "string"),
  column("principal_arn", "string"),
  column("principal_type", "string"),
  column("principal_tags", "json"),
  column("service_name", "string"),
  column("access_capability", "string"),
  column("resource_arn", "string"),
  column("conditional", "boolean"),
  column("except_resources", "json"),
  column("resource_pattern", "string"),
  column("granted_by", "json"),
  // Azure: scopes cut at that scope only (a deny with doNotApplyToChildScopes); last, so that
  // the columns before keep their places for readers by position.
  column("except_resources_this_scope_only", "json"),
] as const;

export const RESOURCE_ACCESS_COLUMNS = [
  column("analysis_time", "timestamp"),
  column("service_name", "string"),
  column("resource_name", "string"),
  column("resource_arn", "string"),
  column("access_capability", "string"),
  column("principal_type", "string"),
  column("principal_name", "string"),
  column("principal_arn", "string"),
  column("resource_tag_confidentiality", "string"),
  column("resource_type", "string"),
  column("principal_in_account", "boolean"),
  column("conditional", "boolean"),
  column("granted_by", "json"),
] as const;

/** Sightline's own report: who can reach the account's IAM-admin roles and its roles open to other accounts. */
export const RESOURCE_ACCESS_PATH_COLUMNS = [
  column("analysis_time", "timestamp"),
  column("resource_name", "string"),
  column("resource_arn", "string"),
  column("resource_type", "string"),
  column("reason", "string"),
  column("path_nodes", "json"),
  column("truncated", "boolean"),
  column("cycle", "boolean"),
  column("conditional", "boolean"),
  column("paths_complete", "boolean"),
] as const;

/**
 * Sightline's own report: what changed since the account's previous analysis, one row per change
 * (k9-cli's `diff` words in `change`; `kind` says what; `granted_by` what grants it now).
 */
export const ACCESS_CHANGE_COLUMNS = [
  column("analysis_time", "timestamp"),
  column("previous_analysis_time", "timestamp"),
  column("change_id", "string"),
  column("change", "string"),
  column("kind", "string"),
  column("principal_arn", "string"),
  column("principal_name", "string"),
  column("principal_type", "string"),
  column("service_name", "string"),
  column("access_capability", "string"),
  column("resource_arn", "string"),
  column("reach", "string"),
  column("confidential", "boolean"),
  column("before", "string"),
  column("after", "string"),
  column("granted_by", "json"),
] as const;

/**
 * Sightline's own report: the findings of the analysis as OCSF Detection Findings (class 2004,
 * schema 1.1.0), one object per line, with OCSF's attribute names.
 */
export const FINDING_COLUMNS = [
  column("activity_id", "integer"),
  column("category_uid", "integer"),
  column("class_uid", "integer"),
  column("type_uid", "integer"),
  column("severity_id", "integer"),
  column("status_id", "integer"),
  column("time", "integer"),
  column("message", "string"),
  column("metadata", "json"),
  column("finding_info", "json"),
  column("cloud", "json"),
  column("resources", "json"),
  column("unmapped", "json"),
] as const;

export const REPORT_COLUMNS = {
  principals: PRINCIPAL_COLUMNS,
  resources: RESOURCE_COLUMNS,
  "principal-access-summaries": PRINCIPAL_ACCESS_COLUMNS,
  "resource-access-summaries": RESOURCE_ACCESS_COLUMNS,
  "resource-access-paths": RESOURCE_ACCESS_PATH_COLUMNS,
  "access-changes": ACCESS_CHANGE_COLUMNS,
  findings: FINDING_COLUMNS,
} as const satisfies Readonly<Record<ReportType, readonly ReportColumn[]>>;

/** How many leading columns of each report are k9's; the rest are Sightline's. */
export const K9_COLUMN_COUNT: Readonly<Record<ReportType, number>> = {
  principals: 19,
  resources: 11,
  "principal-access-summaries": 8,
  "resource-access-summaries": 9,
  "resource-access-paths": 0,
  "access-changes": 0,
  findings: 0,
};

export type PrincipalReportRow = RowOf<typeof PRINCIPAL_COLUMNS>;
export type ResourceReportRow = RowOf<typeof RESOURCE_COLUMNS>;
export type PrincipalAccessReportRow = RowOf<typeof PRINCIPAL_ACCESS_COLUMNS>;
export type ResourceAccessReportRow = RowOf<typeof RESOURCE_ACCESS_COLUMNS>;
export type ResourceAccessPathReportRow = RowOf<typeof RESOURCE_ACCESS_PATH_COLUMNS>;
export type AccessChangeReportRow = RowOf<typeof ACCESS_CHANGE_COLUMNS>;
export type FindingReportRow = RowOf<typeof FINDING_COLUMNS>;

/** The row type of each report. */
export interface ReportRows {
  principals: PrincipalReportRow;
  resources: ResourceReportRow;
  "principal-access-summaries": PrincipalAccessReportRow;
  "resource-access-summaries": ResourceAccessReportRow;
  "resource-access-paths": ResourceAccessPathReportRow;
  "access-changes": AccessChangeReportRow;
  findings: FindingReportRow;
}
