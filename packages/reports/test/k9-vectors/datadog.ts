import { parse } from "csv-parse/sync";
import { K9_COLUMNS, type K9ReportType } from "./k9-format.ts";

/**
 * k9's Datadog integration (k9securityio/k9-datadog-viz @ ed315277, see `sources.ts`):
 * the `k9-reports - latest` pipeline and the `k9 Security Daily Review` dashboard.
 */

/**
 * k9's file-name rule, applied to `aws.s3.key` (pipeline.json:11, :19), re-expressed as a RegExp.
 * Grok rules are anchored (Datadog parsing docs). Matchers: `%{word}` is `\w+` (letters, digits,
 * `_`: a partner id such as `P123456-000000000001` never matches, so nothing of its files is
 * parsed); `%{number}` a decimal number (parsed as a double: an account id's leading zero is
 * lost); `%{notSpace}` `\S+`, backtracking to leave `.latest.<ext>`. `k9.file.type` is any word,
 * so `principals.latest.jsonl` is fed to the principals CSV parser and `manifest.latest.json`
 * becomes report type `manifest` (no CSV parser of k9's filters on it, pipeline.json:44, :90,
 * :137, :170, but it is still ingested as k9 logs). Only `latest/` keys match.
 */
export const DATADOG_FILE_RULE =
  /^customers\/(?<customerId>\w+)\/reports\/aws\/(?<accountId>[+-]?\d+(?:\.\d+)?)\/latest\/(?<reportType>\S+)\.latest\.(?<fileType>\w+)$/;

/**
 * The corrected grok rule Sightline's docs give partners (`docs/integrations.md`): a customer id
 * of letters, digits, `.`, `_` and `-` (our key segment rule, `src/keys.ts`), and only `.csv`.
 */
export const DATADOG_GROK_CORRECTED =
  'parse_filename_metadata customers/%{regex("[A-Za-z0-9][A-Za-z0-9._-]*"):k9.customer.id}/reports/aws/%{number:aws.account.id}/latest/%{notSpace:k9.report.type}\\.latest\\.%{regex("csv"):k9.file.type}';

/** `DATADOG_GROK_CORRECTED` as a RegExp. */
export const DATADOG_FILE_RULE_CORRECTED =
  /^customers\/(?<customerId>[A-Za-z0-9][A-Za-z0-9._-]*)\/reports\/aws\/(?<accountId>[+-]?\d+(?:\.\d+)?)\/latest\/(?<reportType>\S+)\.latest\.(?<fileType>csv)$/;

/**
 * The sub-pipeline of each report type: filter `@k9.report.type:"<type>"` and the attribute its
 * `csv()` filter writes to (pipeline.json:44/58, :90/104, :137/151, :170/184).
 */
export const DATADOG_SUBPIPELINES: Readonly<Record<K9ReportType, string>> = {
  "principal-access-summaries": "principal_access_summary",
  principals: "principal_summary",
  "resource-access-summaries": "resource_access_summary",
  resources: "resource_summary",
};

/** The `csv("…")` header list of each report's parser: k9's columns, exactly. */
export const DATADOG_CSV_HEADERS: Readonly<Record<K9ReportType, readonly string[]>> = K9_COLUMNS;

/**
 * Every attribute value the dashboard searches (dashboards/k9security-daily-review.json:1, one
 * line; widgets by id). Datadog attribute search is case-sensitive: `true` never matches `True`.
 */
export const DASHBOARD_QUERIES: readonly {
  widgets: readonly number[];
  report: K9ReportType;
  column: string;
  values: readonly string[];
}[] = [
  {
    // IAM Administrators (count, list), Change in IAM Admins, … since Yesterday
    widgets: [567133959556460, 8145113124897460, 672510968341014, 6483226307491822],
    report: "principals",
    column: "principal_is_iam_admin",
    values: ["True"],
  },
  {
    widgets: [4562436192953806],
    report: "principals",
    column: "password_state",
    values: ["Inactive"],
  },
  {
    widgets: [5997888719618854],
    report: "principals",
    column: "access_key_1_state",
    values: ["Inactive"],
  },
  {
    widgets: [3704304071628532],
    report: "principals",
    column: "access_key_2_state",
    values: ["Active", "Inactive"],
  },
  {
    widgets: [859004370177827, 5366183655332504],
    report: "principal-access-summaries",
    column: "service_name",
    values: ["S3"],
  },
  {
    widgets: [859004370177827, 5366183655332504],
    report: "principal-access-summaries",
    column: "access_capability",
    values: ["read-data", "write-data", "delete-data"],
  },
  {
    widgets: [8077393817413961, 7608910993816666],
    report: "resource-access-summaries",
    column: "service_name",
    values: ["S3"],
  },
  {
    widgets: [8077393817413961, 7608910993816666],
    report: "resource-access-summaries",
    column: "access_capability",
    values: ["read-data", "write-data", "delete-data"],
  },
  {
    widgets: [8077393817413961, 7608910993816666],
    report: "resource-access-summaries",
    column: "resource_tag_confidentiality",
    values: ["Internal"],
  },
];

/** Every widget also filters `@aws.account.id:$aws_account.value`, the number from the key. */
export const DASHBOARD_ACCOUNT_ATTRIBUTE = "aws.account.id";

/**
 * Datadog's `csv()` filter of a report's sub-pipeline on each line of the file (the pipeline
 * names the cells by its own header list, by position; the file's header line is a log like
 * any other, its cells the column names).
 */
export function datadogEvents(type: K9ReportType, csvText: string): Record<string, string>[] {
  const headers = DATADOG_CSV_HEADERS[type];
  const lines = parse(csvText, { relax_column_count: true }) as string[][];
  return lines.map((cells) =>
    Object.fromEntries(headers.map((column, i) => [column, cells[i] ?? ""])),
  );
}

/**
 * What a dashboard query finds: the events whose attribute equals one of `values` exactly
 * (Datadog's attribute search is case-sensitive). `key` is the `principal_arn` or
 * `resource_arn` the widgets list.
 */
export function datadogSearch(
  query: Pick<(typeof DASHBOARD_QUERIES)[number], "report" | "column" | "values">,
  csvText: string,
): Record<string, string>[] {
  return datadogEvents(query.report, csvText).filter((event) =>
    query.values.includes(event[query.column] ?? ""),
  );
}

/** The dashboard's query on a column of a report (each is cited on `DASHBOARD_QUERIES`). */
export function dashboardQuery(
  report: K9ReportType,
  column: string,
): (typeof DASHBOARD_QUERIES)[number] {
  const query = DASHBOARD_QUERIES.find((q) => q.report === report && q.column === column);
  if (!query) throw new Error(`the dashboard has no query on ${report}.${column}`);
  return query;
}
