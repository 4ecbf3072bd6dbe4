import { column, type RowOf } from "../columns/column.ts";
import type { ReportType } from "../columns/report-columns.ts";
import type { SheetCell } from "./sheet-cells.ts";

/** The workbook's file name before `.<stamp>.xlsx`, as k9 names it. */
export const AUDIT_WORKBOOK_NAME = "resource-access-audit";

/** The sheet of each report the workbook carries, in k9's order of tabs. */
export const AUDIT_SHEET_NAMES = {
  principals: "principals",
  "principal-access-summaries": "principal access",
  resources: "resources",
  "resource-access-summaries": "resource access",
} as const satisfies Partial<Record<ReportType, string>>;
export type AuditSheetReport = keyof typeof AUDIT_SHEET_NAMES;

export const SUMMARY_SHEET = "audit summary";
export const CAPABILITY_SHEET = "capability mapping";

/** The sheet of `type`, or undefined for a report the workbook does not carry. */
export const auditSheetName = (type: ReportType): string | undefined =>
  (AUDIT_SHEET_NAMES as Partial<Record<ReportType, string>>)[type];

/**
 * A capability map as `@sightline/capabilities` gives it (`getAwsCapabilityMap()`): service name
 * → access capability → the actions that grant it.
 */
export type CapabilityMapInput = Readonly<
  Record<string, Readonly<Partial<Record<string, readonly string[]>>>>
>;

export const CAPABILITY_COLUMNS = [
  column("service", "string"),
  column("capability", "string"),
  column("action", "string"),
] as const;
export type CapabilityRow = RowOf<typeof CAPABILITY_COLUMNS>;

/** One row per service, capability and action, in the map's order. */
export function* capabilityRows(map: CapabilityMapInput): Generator<CapabilityRow> {
  for (const [service, capabilities] of Object.entries(map)) {
    for (const [capability, actions] of Object.entries(capabilities)) {
      for (const action of actions ?? []) yield { service, capability, action };
    }
  }
}

/** What the summary says about the analysis; the row counts come from the sheets written. */
export interface AuditSummary {
  /** The analysed account's ID (text: IDs keep their leading zeros). */
  account: string;
  principals: number;
  iamAdmins: number;
  resources: number;
}

/** A report's sheets as written: `sheets` lists the continuations after the first. */
export interface WrittenSheet {
  name: string;
  sheets: string[];
  rows: number;
}

export const SUMMARY_HEADER = ["item", "value", "sheets"] as const;

/** The summary's rows under its header: `item`, `value` (typed) and, for row counts, `sheets`. */
export function summaryRows(
  analysisTime: Date,
  summary: AuditSummary,
  written: readonly WrittenSheet[],
): SheetCell[][] {
  return [
    ["analysis time", analysisTime, null],
    ["account", summary.account, null],
    ["principals", summary.principals, null],
    ["IAM admins", summary.iamAdmins, null],
    ["resources", summary.resources, null],
    ...written.map((sheet) => [`rows: ${sheet.name}`, sheet.rows, sheet.sheets.join(", ")]),
  ];
}
