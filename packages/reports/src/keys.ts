import type { ReportType } from "./columns/report-columns.ts";
import type { WrittenFile } from "./writers/hashing-file.ts";
import type { ReportFormat, WrittenReport, WrittenReportFile } from "./writers/write-report.ts";

/**
 * The cloud family of the analysed account, a key segment: `aws` for every AWS partition,
 * `azure` for Azure subscriptions (`azure` and `azure-government`).
 */
export type ReportProvider = "aws" | "azure";
export const REPORT_PROVIDERS: readonly ReportProvider[] = ["aws", "azure"];

/** Where one run's reports go, and which copies its customer's feature flags ask for. */
export interface DeliveryTarget {
  provider: ReportProvider;
  customerId: string;
  accountId: string;
  analysisTime: Date;
  /**
   * The minute of the dated keys (k9's `YYYY-MM-DD-HHMM`): the analysis's minute, or the next
   * one free when another analysis of the account already holds it. Default: `analysisTime`.
   */
  reportMinute?: Date;
  /** `latestReportEnabled`: also `…/latest/<type>.latest.<ext>`, overwritten by each run. */
  latest: boolean;
  /**
   * `hiveEnabled`: also the latest CSV and Parquet files in k9's hive layout (`hive/…`), and the
   * Parquet files in Sightline's daily history (`sightline/hive/…`), partitioned for Athena.
   */
  hive: boolean;
  /** The formats of the dated and latest copies; a Parquet file written only for hive has none. */
  formats: readonly ReportFormat[];
}

type AccountParts = Pick<DeliveryTarget, "provider" | "customerId" | "accountId">;
type DatedParts = Pick<
  DeliveryTarget,
  "provider" | "customerId" | "accountId" | "analysisTime" | "reportMinute"
>;
/** k9's workbook of a run's four reports (`resource-access-audit.<stamp>.xlsx`). */
export const AUDIT_WORKBOOK_TYPE = "resource-access-audit";
/** A report type, the workbook, or `manifest` for the run's manifests. */
type ObjectName = ReportType | typeof AUDIT_WORKBOOK_TYPE | "manifest";

// Identifiers become path segments and hive partition values: `/`, `=` or `..` would move the key.
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
function segment(field: string, value: string): string {
  if (!SEGMENT.test(value)) throw new RangeError(`${field} '${value}' cannot be a key segment`);
  return value;
}

const two = (n: number) => String(n).padStart(2, "0");
/** `YYYY-MM-DD` of the UTC date. */
const utcDay = (time: Date) =>
  `${time.getUTCFullYear()}-${two(time.getUTCMonth() + 1)}-${two(time.getUTCDate())}`;

function provider(value: ReportProvider): ReportProvider {
  if (!REPORT_PROVIDERS.includes(value))
    throw new RangeError(`provider '${value}' is not aws or azure`);
  return value;
}

const accountPrefix = ({ provider: p, customerId, accountId }: AccountParts) =>
  `customers/${segment("customerId", customerId)}/reports/${provider(p)}/${segment("accountId", accountId)}`;

/**
 * The folder of an object: the CSVs in the account's folder (k9's, which k9's tools walk by
 * name), everything else of Sightline's (full rows as Parquet or JSON Lines, the access paths,
 * the manifests) in the account's `sightline/` folder, where k9's tools do not look.
 */
const folderOf = (parts: AccountParts, ext: string) =>
  ext === "csv" || ext === "xlsx" ? accountPrefix(parts) : `${accountPrefix(parts)}/sightline`;

/**
 * `customers/<customerId>/reports/<aws|azure>/<accountId>/<YYYY>/<MM>/<name>.<YYYY-MM-DD-HHMM>.csv`;
 * other formats and the manifest the same under `<accountId>/sightline/`.
 */
export function datedReportKey(parts: DatedParts, name: ObjectName, ext: string): string {
  const t = parts.reportMinute ?? parts.analysisTime;
  const stamp = `${utcDay(t)}-${two(t.getUTCHours())}${two(t.getUTCMinutes())}`;
  return `${folderOf(parts, ext)}/${t.getUTCFullYear()}/${two(t.getUTCMonth() + 1)}/${name}.${stamp}.${ext}`;
}

/** `…/<accountId>/latest/<name>.latest.csv`; other formats and the manifest under `<accountId>/sightline/latest/`. */
export function latestReportKey(parts: AccountParts, name: ObjectName, ext: string): string {
  return `${folderOf(parts, ext)}/latest/${name}.latest.${ext}`;
}

/**
 * Sightline's daily history for Athena, one Parquet file per report and day (full rows):
 * `sightline/hive/<type>/customer_id=<customerId>/account_id=<accountId>/dt=<YYYY-MM-DD>/<type>.parquet`
 * (`sightline/hive/azure/<type>/…` for Azure), outside the `hive/` tables k9 documents.
 */
export function hiveReportKey(parts: DatedParts, type: ReportType): string {
  const customer = segment("customerId", parts.customerId);
  const account = segment("accountId", parts.accountId);
  const root =
    provider(parts.provider) === "aws" ? "sightline/hive" : `sightline/hive/${parts.provider}`;
  return `${root}/${type}/customer_id=${customer}/account_id=${account}/dt=${utcDay(parts.analysisTime)}/${type}.parquet`;
}

/** k9's names of its four reports in its hive layout, for CSV and for Parquet. */
const K9_HIVE_TYPES: Partial<Record<ReportType, { csv: string; parquet: string }>> = {
  principals: { csv: "csv_principals", parquet: "principals" },
  resources: { csv: "csv_resources", parquet: "resources" },
  "principal-access-summaries": { csv: "csv_pas", parquet: "pas" },
  "resource-access-summaries": { csv: "csv_ras", parquet: "ras" },
};

/**
 * k9's hive layout for Athena (latest only; an AWS account's four reports):
 * `hive/customer_id=<id>/csp=aws/account_id=<acct>/file_type=csv_<x>/<type>.latest.csv` and
 * `hive/parquet/<x>/customer_id=<id>/csp=aws/account_id=<acct>/<type>.latest.parquet`.
 * Undefined for what k9 has no table of (the access paths, Azure, JSON Lines).
 */
export function k9HiveReportKey(
  parts: AccountParts,
  type: ReportType,
  format: ReportFormat,
): string | undefined {
  const names = K9_HIVE_TYPES[type];
  if (!names || provider(parts.provider) !== "aws") return undefined;
  const customer = segment("customerId", parts.customerId);
  const account = segment("accountId", parts.accountId);
  const partitions = `customer_id=${customer}/csp=aws/account_id=${account}`;
  if (format === "csv") return `hive/${partitions}/file_type=${names.csv}/${type}.latest.csv`;
  if (format === "parquet")
    return `hive/parquet/${names.parquet}/${partitions}/${type}.latest.parquet`;
  return undefined;
}

/** A run's workbook as written: k9's `resource-access-audit`, with its sheets' reports. */
export interface WrittenWorkbookFile extends WrittenFile {
  format: "xlsx";
}

/** One local file to upload under one key. */
export interface PlannedObject {
  key: string;
  type: ReportType | typeof AUDIT_WORKBOOK_TYPE;
  file: WrittenReportFile | WrittenWorkbookFile;
}

/**
 * Every object a run delivers, in three sets written one after the other: the dated objects
 * (never rewritten, the dated manifest lists them), the `latest` copies of the same files
 * (rewritten by each run, their own manifest) and the hive Parquet files (one per day, no
 * manifest: a second run of the day replaces them).
 */
export interface DeliveryPlan {
  dated: PlannedObject[];
  latest: PlannedObject[];
  hive: PlannedObject[];
}

/**
 * Reports read line by line whatever the formats setting says: the changes and the findings
 * (OCSF is JSON) always go out as JSON Lines, beside their Parquet when the formats ask for it.
 */
const ALWAYS_JSON_LINES: ReadonlySet<ReportType> = new Set(["access-changes", "findings"]);

/** Each written file of the target's formats under its dated key and, when asked, its latest key; Parquet under its hive key when asked. */
export function planReportObjects(
  reports: readonly WrittenReport[],
  target: DeliveryTarget,
  workbook?: WrittenWorkbookFile,
): DeliveryPlan {
  const plan: DeliveryPlan = { dated: [], latest: [], hive: [] };
  // k9 delivers its workbook dated only: its tools look for no latest copy.
  if (workbook)
    plan.dated.push({
      key: datedReportKey(target, AUDIT_WORKBOOK_TYPE, "xlsx"),
      type: AUDIT_WORKBOOK_TYPE,
      file: workbook,
    });
  for (const { type, files } of reports) {
    for (const file of files) {
      const always = file.format === "jsonl" && ALWAYS_JSON_LINES.has(type);
      if (always || target.formats.includes(file.format)) {
        plan.dated.push({ key: datedReportKey(target, type, file.format), type, file });
        if (target.latest)
          plan.latest.push({ key: latestReportKey(target, type, file.format), type, file });
      }
      if (!target.hive) continue;
      const k9Key = k9HiveReportKey(target, type, file.format);
      if (k9Key) plan.hive.push({ key: k9Key, type, file });
      if (file.format === "parquet")
        plan.hive.push({ key: hiveReportKey(target, type), type, file });
    }
  }
  return plan;
}

/** The manifest beside the dated reports: it lists the dated objects only. */
export const datedManifestKey = (target: DeliveryTarget): string =>
  datedReportKey(target, "manifest", "json");

/** The manifest beside the latest copies, which lists those copies. */
export const latestManifestKey = (target: DeliveryTarget): string =>
  latestReportKey(target, "manifest", "json");
