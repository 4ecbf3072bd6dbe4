export { resourceExpander } from "./aws/expand-resources.ts";
export { type AccountReportMetadata, allResources, reportInputOf } from "./aws/report-input.ts";
export { type AccountReportsInput, writeAccountReports } from "./aws/write-account-reports.ts";
export { writeAzureReports } from "./azure/write-azure-reports.ts";
export type {
  AnyReportRow,
  CellValue,
  ColumnType,
  JsonArray,
  JsonObject,
  ReportColumn,
  RowOf,
} from "./columns/column.ts";
export {
  ACCESS_CHANGE_COLUMNS,
  type AccessChangeReportRow,
  FINDING_COLUMNS,
  type FindingReportRow,
  K9_COLUMN_COUNT,
  PRINCIPAL_ACCESS_COLUMNS,
  PRINCIPAL_COLUMNS,
  type PrincipalAccessReportRow,
  type PrincipalReportRow,
  REPORT_COLUMNS,
  REPORT_TYPES,
  RESOURCE_ACCESS_COLUMNS,
  RESOURCE_ACCESS_PATH_COLUMNS,
  RESOURCE_COLUMNS,
  type ReportRows,
  type ReportType,
  type ResourceAccessPathReportRow,
  type ResourceAccessReportRow,
  type ResourceReportRow,
} from "./columns/report-columns.ts";
export {
  AUDIT_WORKBOOK_TYPE,
  type DeliveryPlan,
  type DeliveryTarget,
  datedManifestKey,
  datedReportKey,
  hiveReportKey,
  k9HiveReportKey,
  latestManifestKey,
  latestReportKey,
  type PlannedObject,
  planReportObjects,
  REPORT_PROVIDERS,
  type ReportProvider,
  type WrittenWorkbookFile,
} from "./keys.ts";
export {
  buildManifest,
  Manifest,
  type ManifestInput,
  ManifestObject,
  ManifestWarning,
} from "./manifest.ts";
export {
  buildPrincipalAccessRow,
  type PrincipalAccessRowOptions,
  principalAccessReportRows,
} from "./rows/principal-access-rows.ts";
export { buildPrincipalRow, principalReportRows } from "./rows/principal-rows.ts";
export { RecurringLookup } from "./rows/recurring-lookup.ts";
export { createReportContext, nameFromArn, type ReportContext } from "./rows/report-context.ts";
export type {
  AccessKeyCredential,
  PasswordCredential,
  PrincipalMetadata,
  ReportInput,
  ResourceMetadata,
  UserCredentials,
} from "./rows/report-metadata.ts";
export { resourceAccessPathRows } from "./rows/resource-access-path-rows.ts";
export { buildResourceAccessRow, resourceAccessReportRows } from "./rows/resource-access-rows.ts";
export { buildResourceRow, resourceReportRows } from "./rows/resource-rows.ts";
export { findWellKnownTags, type WellKnownTag } from "./rows/well-known-tags.ts";
export {
  AUDIT_SHEET_NAMES,
  AUDIT_WORKBOOK_NAME,
  type AuditSheetReport,
  type AuditSummary,
  auditSheetName,
  CAPABILITY_COLUMNS,
  CAPABILITY_SHEET,
  type CapabilityMapInput,
  capabilityRows,
  SUMMARY_SHEET,
  type WrittenSheet,
} from "./workbook/audit-sheets.ts";
export {
  type AuditWorkbook,
  type AuditWorkbookOptions,
  EXCEL_MAX_ROWS,
  openAuditWorkbook,
  type SheetWriter,
  type WrittenWorkbook,
} from "./workbook/audit-workbook.ts";
export { EXCEL_MAX_CELL_CHARS, TIMESTAMP_FORMAT } from "./workbook/sheet-cells.ts";
export { openCsvWriter } from "./writers/csv-writer.ts";
export { LOCAL_FILES, type ReportFiles, type WrittenFile } from "./writers/hashing-file.ts";
export { openJsonLinesWriter } from "./writers/jsonl-writer.ts";
export { DEFAULT_ROW_GROUP_SIZE, openParquetWriter } from "./writers/parquet-writer.ts";
export type {
  CsvDialect,
  OpenRowWriter,
  RowWriter,
  RowWriterOptions,
} from "./writers/row-writer.ts";
export {
  fullRowFormats,
  REPORT_FORMATS,
  type ReportFormat,
  type WriteReportOptions,
  type WrittenReport,
  type WrittenReportFile,
  writeReport,
} from "./writers/write-report.ts";
