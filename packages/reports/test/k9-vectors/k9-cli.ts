import type { K9ReportType } from "./k9-format.ts";

/**
 * k9-cli (k9securityio/k9-cli @ bede6021, Apache-2.0, see `sources.ts`): how `query` and `diff`
 * find and read a report. Our own re-implementation of its rules, for tests.
 */

/**
 * Exact field count of every record, header included: `len(in) != 19` etc. rejects the report
 * (core/reports.go:205 principals, :134 resources, :259 principal access, :305 resource access).
 * Go's `encoding/csv` reader (:327) also wants every record as long as the first.
 */
export const K9_CLI_FIELD_COUNTS: Readonly<Record<K9ReportType, number>> = {
  principals: 19,
  resources: 11,
  "principal-access-summaries": 8,
  "resource-access-summaries": 9,
};

/**
 * `analysis_time` through `time.Parse(time.RFC3339Nano, …)` (core/reports.go:138, :209, :263,
 * :309): a `T`, optional fraction of up to nine digits, `Z` or `±hh:mm`. Any other cell is kept as
 * text; `principal_is_iam_admin` goes through `strconv.ParseBool` (:216), whose error is dropped
 * (any other text reads as false).
 */
export const K9_CLI_ANALYSIS_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
export const K9_CLI_BOOLEANS = [
  "1",
  "t",
  "T",
  "TRUE",
  "true",
  "True",
  "0",
  "f",
  "F",
  "FALSE",
  "false",
  "False",
];

/** The file-name stamp, Go layout `2006-01-02-1504` (core/strings.go:54). */
const STAMP = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})$/;

/** `time.Parse("2006-01-02-1504", s)` as UTC milliseconds, or undefined when Go would fail. */
export function parseK9Stamp(stamp: string): number | undefined {
  const m = STAMP.exec(stamp);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59)
    return undefined;
  return ms;
}

const DAY = 86_400_000;
const byPathSegments = (a: string, b: string) => {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i] as string, y[i] as string];
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
};

/** One account's reports by UTC day, each a map of kind (file-name prefix) to path. */
export type K9CliDb = Map<string, Map<string, Map<number, Map<string, string>>>>;

/**
 * `core.LoadLocalDB(report-home)` (core/db.go:157-163, walker :246-306) over paths relative to
 * report-home, `/`-separated. `filepath.Walk` visits names in lexical order, so a later path
 * replaces an earlier one of the same customer, account, UTC day and kind (:294-304): for
 * `principals.2024-12-10-0503.csv` and `principals.2024-12-10-0503.jsonl` the `.jsonl` wins.
 * Rules: a path of exactly 8 segments (`customers/<c>/reports/aws/<a>/<YYYY>/<MM>/<file>`; the
 * segments' values are not checked, only positions 1 and 4 are read, :260-279); any other depth
 * is skipped. Its file name must split on `.` into exactly 3 parts (:283-286) and the middle one
 * be `latest` (skipped, :287-289) or a valid stamp (:290-293); otherwise the whole walk fails with
 * that error and `query`/`diff` exit. The extension is never looked at.
 */
export function k9CliLoadLocalDb(paths: Iterable<string>): { db: K9CliDb } | { error: string } {
  const db: K9CliDb = new Map();
  for (const rel of [...paths].sort(byPathSegments)) {
    const parts = rel.split("/");
    if (parts.length !== 8) continue;
    const [customer, account, base] = [parts[1] as string, parts[4] as string, parts[7] as string];
    const accounts = db.get(customer) ?? new Map();
    db.set(customer, accounts);
    const days = accounts.get(account) ?? new Map();
    accounts.set(account, days);
    const baseParts = base.split(".");
    if (baseParts.length !== 3)
      return { error: `invalid report filename, invalid filename structure: ${rel}` };
    const [kind, stamp] = baseParts as [string, string, string];
    if (stamp === "latest") continue;
    const time = parseK9Stamp(stamp);
    if (time === undefined) return { error: `invalid report filename, invalid timestamp: ${rel}` };
    const day = Math.floor(time / DAY) * DAY;
    const kinds = days.get(day) ?? new Map();
    days.set(day, kinds);
    kinds.set(kind, rel);
  }
  return { db };
}

/**
 * What `k9 query <kind>` / `k9 diff` open for a customer and account: with `--analysis-date`
 * (YYYY-MM-DD) that UTC day's path, else the latest day's (core/db.go:69-92, `Latest()` :138-148).
 * Returns the path per kind, or the walk's error.
 */
export function k9CliPick(
  paths: Iterable<string>,
  query: { customerId: string; accountId: string; analysisDate?: string },
): { files: Record<string, string> } | { error: string } {
  const loaded = k9CliLoadLocalDb(paths);
  if ("error" in loaded) return loaded;
  const days = loaded.db.get(query.customerId)?.get(query.accountId);
  if (!days) return { files: {} };
  let day: number | undefined;
  if (query.analysisDate === undefined) day = Math.max(...days.keys());
  else day = Date.parse(`${query.analysisDate}T00:00:00Z`);
  return { files: Object.fromEntries(days.get(day) ?? new Map()) };
}

/**
 * `k9 sync` (cmd/sync.go:58-62, core/db.go:169-239): keys of the whole bucket ending in `csv`
 * (a suffix, no dot; `xlsx` with `--include-xlsx`), of 8 segments, with a 3-part file name whose
 * middle is a valid stamp; anything else is skipped silently. Returns whether the key is fetched.
 */
export function k9CliSyncSelects(key: string, includeXlsx = false): boolean {
  if (!key.endsWith("csv") && !(includeXlsx && key.endsWith("xlsx"))) return false;
  const parts = key.split("/");
  if (parts.length !== 8) return false;
  const baseParts = (parts[7] as string).split(".");
  if (baseParts.length !== 3 || baseParts[1] === "latest") return false;
  return parseK9Stamp(baseParts[1] as string) !== undefined;
}

/** The dated key k9 writes: `customers/%s/reports/aws/%s/%s/%s/%s.%s.csv` (core/strings.go:22). */
export const K9_DATED_KEY =
  /^customers\/(?<customerId>[^/]+)\/reports\/aws\/(?<accountId>\d{12})\/(?<year>\d{4})\/(?<month>\d{2})\/(?<reportType>[a-z-]+)\.(?<stamp>\d{4}-\d{2}-\d{2}-\d{4})\.(?<ext>csv|xlsx)$/;

/** The latest key: `…/<accountId>/latest/<type>.latest.csv` (core/list.go:156; list_test.go:35). */
export const K9_LATEST_KEY =
  /^customers\/(?<customerId>[^/]+)\/reports\/aws\/(?<accountId>\d{12})\/latest\/(?<reportType>[a-z-]+)\.latest\.(?<ext>csv)$/;
