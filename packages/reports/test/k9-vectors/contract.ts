import { parse } from "csv-parse/sync";
import { expect } from "vitest";
import { ATHENA_CSV_TREE, ATHENA_LOCATIONS, ATHENA_PARQUET_TREE } from "./athena.ts";
import { DATADOG_FILE_RULE, DATADOG_FILE_RULE_CORRECTED } from "./datadog.ts";
import {
  K9_CLI_ANALYSIS_TIME,
  K9_CLI_FIELD_COUNTS,
  K9_DATED_KEY,
  K9_LATEST_KEY,
  k9CliLoadLocalDb,
  k9CliSyncSelects,
} from "./k9-cli.ts";
import {
  FORMULA_ESCAPED,
  K9_ACCESS_CAPABILITIES,
  K9_ANALYSIS_TIME,
  K9_BOOLEAN,
  K9_CELL_KINDS,
  K9_COLUMNS,
  K9_REPORT_TYPES,
  K9_STATE,
  K9_TIME,
  K9_TYPE_NAME,
  type K9ReportType,
} from "./k9-format.ts";
import {
  SPLUNK_SOURCE_GLOBS,
  SPLUNK_STRPTIME,
  SPLUNK_TIME_FORMAT,
  splunkGlob,
  splunkStagedFiles,
} from "./splunk.ts";

/**
 * THE CONTRACT Sightline's AWS report CSVs must meet to be read by k9's integrations as k9's own
 * reports are: Datadog (k9-datadog-viz), Splunk (k9-splunk-viz), k9-cli and Athena (k9's hive
 * layout). Every rule is a vector of this folder, each citing its source. `k9Violations` lists
 * what breaks, `expectK9Compatible` fails a test on any.
 */
export interface K9Report {
  /** `principals`, `resources`, `principal-access-summaries` or `resource-access-summaries`. */
  type: string;
  /** The delivered object's bytes as text. */
  csvText: string;
  /** The object key it is delivered under: dated, `latest/` or k9's CSV hive key. */
  key: string;
}

const MAX_CELL_VIOLATIONS = 40;
const isK9Type = (type: string): type is K9ReportType =>
  (K9_REPORT_TYPES as readonly string[]).includes(type);

function cellViolation(column: string, value: string): string | undefined {
  const kind = K9_CELL_KINDS[column];
  if (FORMULA_ESCAPED.test(value)) return `formula-escaped (k9 escapes nothing)`;
  switch (kind) {
    case "analysisTime":
      if (!K9_ANALYSIS_TIME.test(value))
        return `not k9's YYYY-MM-DDTHH:MM:SS.ffffff+00:00${SPLUNK_TIME_FORMAT.test(value) ? "" : " (Splunk TIME_FORMAT fails)"}${K9_CLI_ANALYSIS_TIME.test(value) ? "" : " (k9-cli RFC3339Nano fails)"}`;
      return undefined;
    case "time":
      if (value === "") return undefined;
      if (!K9_TIME.test(value))
        return `not k9's YYYY-MM-DD HH:MM:SS+00:00 or empty${SPLUNK_STRPTIME.test(value) ? "" : " (Splunk strptime %Y-%m-%d %H:%M:%S fails)"}`;
      return undefined;
    case "boolean":
      return K9_BOOLEAN.test(value) ? undefined : "not True/False (Datadog searches True)";
    case "state":
      return K9_STATE.test(value) ? undefined : "not Active/Inactive/empty";
    case "tags": {
      let tags: unknown;
      try {
        tags = JSON.parse(value);
      } catch {
        return "not JSON (Datadog's json filter fails)";
      }
      if (typeof tags !== "object" || tags === null || Array.isArray(tags))
        return "not a JSON object";
      if (Object.values(tags).some((v) => typeof v !== "string")) return "a tag value not a string";
      return undefined;
    }
    case "capability":
      return (K9_ACCESS_CAPABILITIES as readonly string[]).includes(value)
        ? undefined
        : "not one of k9's access capabilities";
    case "typeName":
      return K9_TYPE_NAME.test(value) ? undefined : "not a k9 type name (CamelCase, e.g. IAMUser)";
    default:
      return undefined;
  }
}

function keyViolations(type: K9ReportType, key: string): string[] {
  const latest = K9_LATEST_KEY.exec(key);
  if (latest?.groups) {
    const problems: string[] = [];
    if (latest.groups.reportType !== type)
      problems.push(`latest key names ${latest.groups.reportType}`);
    const dd = DATADOG_FILE_RULE_CORRECTED.exec(key);
    if (dd?.groups?.reportType !== type)
      problems.push("the corrected Datadog file rule does not give this report type");
    const customerId = latest.groups.customerId as string;
    if (/^\w+$/.test(customerId) && DATADOG_FILE_RULE.exec(key)?.groups?.reportType !== type)
      problems.push("k9's Datadog file rule does not give this report type");
    problems.push(...splunkViolations(type, key));
    return problems;
  }
  const dated = K9_DATED_KEY.exec(key);
  if (dated?.groups && dated.groups.ext === "csv") {
    const problems: string[] = [];
    if (dated.groups.reportType !== type)
      problems.push(`dated key names ${dated.groups.reportType}`);
    if (!k9CliSyncSelects(key)) problems.push("k9 sync would not fetch it");
    const loaded = k9CliLoadLocalDb([key]);
    if ("error" in loaded) problems.push(`k9-cli's walk fails: ${loaded.error}`);
    if (!isK9DatedKey(key)) problems.push("the YYYY/MM folder is not the stamp's");
    problems.push(...splunkViolations(type, key));
    return problems;
  }
  if (ATHENA_LOCATIONS[type].csv.key.test(key)) return [];
  return [`key ${key} is none of k9's keys for ${type} (dated, latest/ or hive CSV)`];
}

/** The staged copy must be found by a `source=` glob of its report, and by none of another's. */
function splunkViolations(type: K9ReportType, key: string): string[] {
  const staged = splunkStagedFiles([key])[0]?.staged;
  if (staged === undefined) return ["Splunk's staging script would not pick it"];
  const hits = SPLUNK_SOURCE_GLOBS.filter(({ glob }) => splunkGlob(glob).test(staged));
  const problems: string[] = [];
  if (!hits.some((hit) => hit.report === type))
    problems.push(`no Splunk source glob of ${type} finds ${staged}`);
  for (const hit of hits)
    if (hit.report !== type) problems.push(`Splunk's ${hit.glob} (${hit.report}) finds ${staged}`);
  return problems;
}

/** Everything in one delivered report that a k9 integration would read wrongly or not at all. */
export function k9Violations(report: K9Report): string[] {
  const { type, csvText, key } = report;
  if (!isK9Type(type)) return [`${type} is not one of k9's reports`];
  const problems = keyViolations(type, key);
  if (csvText.charCodeAt(0) === 0xfeff) problems.push("starts with a byte-order mark");
  let records: string[][];
  try {
    // Go's encoding/csv (k9-cli) is strict about quotes: so is csv-parse without relax options.
    records = parse(csvText, { bom: false, relax_column_count: true }) as string[][];
  } catch (error) {
    return [...problems, `not valid CSV: ${(error as Error).message}`];
  }
  const [header, ...rows] = records;
  const columns = K9_COLUMNS[type];
  if (JSON.stringify(header) !== JSON.stringify(columns))
    problems.push(`header is not k9's: ${JSON.stringify(header)}`);
  const count = K9_CLI_FIELD_COUNTS[type];
  const analysisTimes = new Set<string>();
  let cellProblems = 0;
  let countProblems = 0;
  rows.forEach((row, index) => {
    const line = index + 2;
    if (row.length !== count && countProblems++ < 3)
      problems.push(`row ${line}: ${row.length} fields, k9-cli wants ${count}`);
    // k9's columns are checked even in a row of the wrong length, to name every break at once.
    row.slice(0, count).forEach((value, i) => {
      const column = columns[i] as string;
      if (column === "analysis_time") analysisTimes.add(value);
      const problem = cellViolation(column, value);
      if (problem && cellProblems++ < MAX_CELL_VIOLATIONS)
        problems.push(`row ${line} ${column} ${JSON.stringify(value)}: ${problem}`);
    });
  });
  if (countProblems > 3) problems.push(`… ${countProblems - 3} more rows of the wrong length`);
  if (cellProblems > MAX_CELL_VIOLATIONS)
    problems.push(`… ${cellProblems - MAX_CELL_VIOLATIONS} more cell violations`);
  if (analysisTimes.size > 1) problems.push(`${analysisTimes.size} analysis times in one report`);
  return problems;
}

/** Fails the calling test with every violation of the contract (`k9Violations`). */
export function expectK9Compatible(report: K9Report): void {
  expect(k9Violations(report), `${report.type} at ${report.key}`).toEqual([]);
}

const ACCOUNT_PREFIX =
  /^customers\/(?<customerId>[^/]+)\/reports\/aws\/(?<accountId>[^/]+)\/(?<rest>.+)$/;

/** A k9 report file in its dated folder: a k9 CSV, or k9's Excel `resource-access-audit`. */
function isK9DatedKey(key: string): boolean {
  const dated = K9_DATED_KEY.exec(key)?.groups;
  if (!dated) return false;
  if (dated.year !== dated.stamp?.slice(0, 4) || dated.month !== dated.stamp?.slice(5, 7))
    return false;
  return dated.ext === "csv"
    ? isK9Type(dated.reportType as string)
    : dated.reportType === "resource-access-audit";
}

/**
 * Everything in a bucket listing (every key a delivery leaves) that k9's integrations would trip
 * on: k9's folders (`<YYYY>/<MM>/`, `latest/`) holding anything but k9's files, k9-cli's walk
 * failing or reading a non-CSV as a report, Datadog, Splunk or k9 sync taking a non-k9 object
 * for a report, and anything under k9's hive tables that is not one of their files.
 */
export function k9LayoutViolations(keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    const rest = ACCOUNT_PREFIX.exec(key)?.groups?.rest;
    if (rest !== undefined) {
      if (/^latest\/[^/]+$/.test(rest)) {
        if (
          !K9_LATEST_KEY.test(key) ||
          !isK9Type(K9_LATEST_KEY.exec(key)?.groups?.reportType ?? "")
        )
          problems.push(`${key}: not a k9 file in k9's latest/ folder`);
      } else if (/^\d{4}\/\d{2}\/[^/]+$/.test(rest) && !isK9DatedKey(key))
        problems.push(`${key}: not a k9 file in k9's dated folder`);
      for (const rule of [DATADOG_FILE_RULE, DATADOG_FILE_RULE_CORRECTED]) {
        const dd = rule.exec(key)?.groups;
        if (dd && !(isK9Type(dd.reportType as string) && dd.fileType === "csv"))
          problems.push(
            `${key}: Datadog's file rule takes it for k9 report ${dd.reportType}.${dd.fileType}`,
          );
      }
      if (k9CliSyncSelects(key) && !isK9DatedKey(key))
        problems.push(`${key}: k9 sync would fetch it`);
    }
    if (ATHENA_CSV_TREE.test(key) || ATHENA_PARQUET_TREE.test(key)) {
      const known = K9_REPORT_TYPES.some(
        (t) => ATHENA_LOCATIONS[t].csv.key.test(key) || ATHENA_LOCATIONS[t].parquet.key.test(key),
      );
      if (!known) problems.push(`${key}: under k9's hive tables but not one of their files`);
    }
  }
  for (const { key, staged } of splunkStagedFiles(keys)) {
    if (K9_LATEST_KEY.test(key) || isK9DatedKey(key)) continue;
    const hits = SPLUNK_SOURCE_GLOBS.filter(({ glob }) => splunkGlob(glob).test(staged));
    if (hits.length > 0)
      problems.push(
        `${key}: Splunk's staging copies it as ${staged}, found by ${hits.map((h) => h.glob).join(", ")}`,
      );
  }
  // As after `aws s3 sync s3://<bucket>/ <report-home>` (k9 sync fetches only dated CSVs).
  const loaded = k9CliLoadLocalDb(keys);
  if ("error" in loaded) problems.push(`k9-cli's folder walk fails: ${loaded.error}`);
  else
    for (const accounts of loaded.db.values())
      for (const days of accounts.values())
        for (const kinds of days.values())
          for (const [kind, path] of kinds)
            if (isK9Type(kind) && !path.endsWith(".csv"))
              problems.push(`k9-cli reads ${path} as the ${kind} report`);
  return problems;
}

/** Fails the calling test with every layout violation (`k9LayoutViolations`). */
export function expectK9Layout(keys: readonly string[]): void {
  expect(k9LayoutViolations(keys)).toEqual([]);
}
