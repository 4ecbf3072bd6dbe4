import { parse } from "csv-parse/sync";
import type { K9ReportType } from "./k9-format.ts";

/**
 * k9's Splunk integration (k9securityio/k9-splunk-viz @ 3e418ae4, see `sources.ts`).
 */

/**
 * The source type's `TIME_FORMAT = %Y-%m-%dT%H:%M:%S.%6N%:z` on `TIMESTAMP_FIELDS = analysis_time`
 * (README.md:40-41; `TZ = GMT`, :42): six sub-second digits and a `±hh:mm` offset. `…766Z`
 * (milliseconds, `Z`) does not match, and Splunk falls back to the index time.
 */
export const SPLUNK_TIME_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/;

/**
 * `strptime(<field>, "%Y-%m-%d %H:%M:%S")` of kata 2 on `principal_last_used` (README.md:170) and
 * kata 3 on `password_last_rotated`, `access_key_1_last_rotated`, `access_key_2_last_rotated`
 * (README.md:195-197): a space between date and time. strptime reads the format's length and
 * leaves the rest (k9's `+00:00`), so this is a prefix; an ISO `2024-12-10T05:03:00.000Z` has
 * `T` where the space must be and gives null, so kata 3 finds no stale credential.
 */
export const SPLUNK_STRPTIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;

/** The columns those searches run strptime on (README.md:170, :195-197). */
export const SPLUNK_STRPTIME_COLUMNS = [
  "principal_last_used",
  "password_last_rotated",
  "access_key_1_last_rotated",
  "access_key_2_last_rotated",
] as const;

/**
 * Kata 2 counts a principal as never used when `principal_last_used` is empty or null
 * (README.md:171; the dashboard's `isnull('principal_last_used')`, dashboard.xml:70, :87): an
 * unused principal's cell must be empty, not `never` or `N/A`. Kata 2 flags last use before
 * `-90d@d` (README.md:172); kata 3 rotation before `-61d@d` (README.md:198).
 */
export const SPLUNK_KATA_THRESHOLDS = { unusedDays: 90, staleRotationDays: 61 } as const;

/**
 * Values the searches match (field=value in a Splunk search ignores case; `where … like`
 * does not): README.md:134, :150-151 `principal_is_iam_admin="True"`; dashboard.xml:33, :50
 * `service_name=IAM access_capability=administer-resource`; :105 `service_name=KMS`;
 * :127 `service_name="S3"`; :132 `resource_type="S3Bucket"`; the account is
 * `mvindex(split(principal_arn, ":"), 4)` (:19) or `principal_arn like "arn:aws:iam::<account>%"`.
 */
export const SPLUNK_QUERIES: readonly { report: K9ReportType; column: string; value: string }[] = [
  { report: "principals", column: "principal_is_iam_admin", value: "True" },
  { report: "principal-access-summaries", column: "service_name", value: "IAM" },
  {
    report: "principal-access-summaries",
    column: "access_capability",
    value: "administer-resource",
  },
  { report: "resource-access-summaries", column: "service_name", value: "KMS" },
  { report: "resource-access-summaries", column: "service_name", value: "S3" },
  { report: "resources", column: "resource_type", value: "S3Bucket" },
];

/**
 * The `source=` globs of the README searches and the dashboard, each with the report it means:
 * README.md:134, :150, :169, :194 `*principals.latest.csv`; dashboard.xml:17
 * `*_principal-access-summaries.*.csv`; :68, :85 `*principals.*.csv`; :107, :129
 * `*resource-access-summaries.*.csv`; :132 `*_resources.*.csv`. (`_` before the name holds for
 * the staged copies below, not for S3-notified sources, whose path has `/` there.)
 */
export const SPLUNK_SOURCE_GLOBS: readonly { glob: string; report: K9ReportType }[] = [
  { glob: "*principals.latest.csv", report: "principals" },
  { glob: "*_principal-access-summaries.*.csv", report: "principal-access-summaries" },
  { glob: "*principals.*.csv", report: "principals" },
  { glob: "*resource-access-summaries.*.csv", report: "resource-access-summaries" },
  { glob: "*_resources.*.csv", report: "resources" },
];

/** Splunk's `*` wildcard as a RegExp (case-insensitive, as Splunk matches `source`). */
export function splunkGlob(glob: string): RegExp {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

/**
 * The staging script's pick: `aws s3 sync` of `s3://<bucket>/customers/<id>/` (k9security.bash:2),
 * then under `reports/aws` every file named `*.csv` (stage-k9security-data-for-ingest.sh:3, :8;
 * modified within 7 days, not modelled) copied as its relative path with `/` turned to `_` (:14),
 * e.g. `139710491120_latest_principals.latest.csv`. Keys are bucket keys; returns the staged names.
 */
export function splunkStagedFiles(keys: Iterable<string>): { key: string; staged: string }[] {
  const staged: { key: string; staged: string }[] = [];
  for (const key of keys) {
    const match = /^customers\/[^/]+\/reports\/aws\/(.+)$/.exec(key);
    if (!match?.[1]) continue;
    const base = key.slice(key.lastIndexOf("/") + 1);
    if (!/\.csv$/.test(base)) continue;
    staged.push({ key, staged: match[1].replaceAll("/", "_") });
  }
  return staged;
}

/**
 * Splunk's `strptime(value, "%Y-%m-%d %H:%M:%S")` as epoch seconds (`TZ = GMT`, README.md:42), or
 * null where the format does not match: the prefix rule of `SPLUNK_STRPTIME`, the rest ignored.
 */
export function splunkStrptime(value: string | undefined): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(value ?? "");
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) / 1000;
}

/** `relative_time(now(), "-<days>d@d")`: `days` back, snapped to that day's midnight (GMT). */
export function splunkRelativeDays(now: Date, days: number): number {
  const back = new Date(now.getTime() - days * 86_400_000);
  return Date.UTC(back.getUTCFullYear(), back.getUTCMonth(), back.getUTCDate()) / 1000;
}

/**
 * Splunk indexes a CSV by its header line (`INDEXED_EXTRACTIONS = csv`, README.md:37); an empty
 * cell gives no field, which the searches test with `isnull`.
 */
export function splunkEvents(csvText: string): Record<string, string | undefined>[] {
  const [header, ...lines] = parse(csvText, { relax_column_count: true }) as string[][];
  return lines.map((cells) =>
    Object.fromEntries(
      (header ?? []).map((column, i) => [column, cells[i] === "" ? undefined : cells[i]]),
    ),
  );
}

/**
 * Kata 2, "Find unused IAM principals" (README.md:167-174), on a `principals.latest.csv`: the
 * `principal_arn` of every principal never used (`principal_last_used` empty or null) or last
 * used on or before `relative_time(now(), "-90d@d")`.
 */
export function splunkKata2UnusedPrincipals(csvText: string, now: Date): string[] {
  const threshold = splunkRelativeDays(now, SPLUNK_KATA_THRESHOLDS.unusedDays);
  const found = new Set<string>();
  for (const event of splunkEvents(csvText)) {
    const used = splunkStrptime(event.principal_last_used);
    const neverUsed = event.principal_last_used === undefined;
    if (neverUsed || (used !== null && used <= threshold)) found.add(event.principal_arn ?? "");
  }
  return [...found].sort();
}

/**
 * Kata 3, "Find stale AWS user credentials" (README.md:192-201): the `principal_arn` of every
 * principal with a password or access key last rotated on or before
 * `relative_time(now(), "-61d@d")`. A null `_dt` (empty, or a time strptime cannot read)
 * compares false, so such a credential is never found.
 */
export function splunkKata3StaleCredentials(csvText: string, now: Date): string[] {
  const threshold = splunkRelativeDays(now, SPLUNK_KATA_THRESHOLDS.staleRotationDays);
  const found = new Set<string>();
  for (const event of splunkEvents(csvText)) {
    const stale = [
      "password_last_rotated",
      "access_key_1_last_rotated",
      "access_key_2_last_rotated",
    ]
      .map((column) => splunkStrptime(event[column]))
      .some((rotated) => rotated !== null && rotated <= threshold);
    if (stale) found.add(event.principal_arn ?? "");
  }
  return [...found].sort();
}
