/**
 * k9 Security's four AWS report CSVs as its own integrations read them: the columns, in order,
 * and the form of each value. Sources: `sources.ts` (DD = k9-datadog-viz pipeline, SP = k9-splunk-viz
 * README, CLI = k9-cli), lines as `path:line` at the commits recorded there.
 */

export const K9_REPORT_TYPES = [
  "principals",
  "resources",
  "principal-access-summaries",
  "resource-access-summaries",
] as const;
export type K9ReportType = (typeof K9_REPORT_TYPES)[number];

/**
 * The header of each report, exactly: the column lists of the Datadog pipeline's `csv()` filters
 * (DD pipelines/k9-reports-latest.pipeline.json:104 principals, :184 resources,
 * :58 principal-access-summaries, :151 resource-access-summaries). They agree, name for name and
 * in order, with k9-cli's record structs and unmarshal positions (CLI core/reports.go:155-232,
 * :102-153, :234-275, :277-322); Splunk takes field names from the header row
 * (SP README.md:35 `INDEXED_EXTRACTIONS = csv`), so the names must be these.
 */
export const K9_COLUMNS: Readonly<Record<K9ReportType, readonly string[]>> = {
  principals: [
    "analysis_time",
    "principal_name",
    "principal_arn",
    "principal_type",
    "principal_is_iam_admin",
    "principal_last_used",
    "principal_tag_business_unit",
    "principal_tag_environment",
    "principal_tag_used_by",
    "principal_tags",
    "password_last_used",
    "password_last_rotated",
    "password_state",
    "access_key_1_last_used",
    "access_key_1_last_rotated",
    "access_key_1_state",
    "access_key_2_last_used",
    "access_key_2_last_rotated",
    "access_key_2_state",
  ],
  resources: [
    "analysis_time",
    "resource_name",
    "resource_arn",
    "resource_type",
    "resource_tag_business_unit",
    "resource_tag_environment",
    "resource_tag_owner",
    "resource_tag_confidentiality",
    "resource_tag_integrity",
    "resource_tag_availability",
    "resource_tags",
  ],
  "principal-access-summaries": [
    "analysis_time",
    "principal_name",
    "principal_arn",
    "principal_type",
    "principal_tags",
    "service_name",
    "access_capability",
    "resource_arn",
  ],
  "resource-access-summaries": [
    "analysis_time",
    "service_name",
    "resource_name",
    "resource_arn",
    "access_capability",
    "principal_type",
    "principal_name",
    "principal_arn",
    "resource_tag_confidentiality",
  ],
};

/**
 * `analysis_time` as k9 writes it: microseconds and `+00:00`, e.g. `2022-12-10T07:14:19.753800+00:00`
 * (DD pipeline.json:98, :52, :145, :178; CLI core/reports_test.go:39). It is the event time of
 * every integration: Splunk `TIMESTAMP_FIELDS = analysis_time` with `TIME_FORMAT
 * %Y-%m-%dT%H:%M:%S.%6N%:z` (SP README.md:40-41), Datadog's date remapper (DD pipeline.json:79,
 * :126, :159, :206), k9-cli `time.Parse(time.RFC3339Nano, …)` (CLI core/reports.go:209).
 */
export const K9_ANALYSIS_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

/**
 * Every other time: `YYYY-MM-DD HH:MM:SS+00:00`, whole seconds, e.g. `2021-03-08 21:03:09+00:00`
 * (DD pipeline.json:98-100; CLI README.md:258-261). Empty when the principal or credential was
 * never used / does not exist (DD pipeline.json:98 password columns, :99 a role's credential
 * columns; SP README.md:171 tests `principal_last_used=""`).
 */
export const K9_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/;

/** Python's `str(bool)`: `True`/`False` (DD pipeline.json:98-100; dashboards query `True`). */
export const K9_BOOLEAN = /^(True|False)$/;

/**
 * A credential's state: `Active` or `Inactive` (DD pipeline.json:98 `Active`; DD dashboard queries
 * `Inactive` and `(Active OR Inactive)`), empty when the principal has no such credential — a role,
 * or a user without a password or second key (DD pipeline.json:98-100). k9 writes no `N/A`.
 */
export const K9_STATE = /^(Active|Inactive)?$/;

/** k9's access capabilities: CLI core/const.go:30-34, and `use-resource` (DD pipeline.json:54). */
export const K9_ACCESS_CAPABILITIES = [
  "administer-resource",
  "read-config",
  "read-data",
  "write-data",
  "delete-data",
  "use-resource",
] as const;

/** Values seen in k9's own output (DD pipeline.json:98-100, :52-54, :145-147, :178-180; SP dashboard:132). */
export const K9_SEEN_VALUES = {
  principal_type: ["IAMUser", "IAMRole"],
  resource_type: ["IAMRole", "S3Bucket", "RDSCluster"],
  service_name: ["Athena", "DynamoDB Accelerator (DAX)", "STS", "DynamoDB", "KMS", "S3", "IAM"],
} as const;

/** k9's type names are CamelCase words (`IAMUser`, `S3Bucket`, `RDSCluster`). */
export const K9_TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/** What each cell must look like, by column name; columns not listed are free text. */
export type K9CellKind =
  | "analysisTime"
  | "time"
  | "boolean"
  | "state"
  | "tags"
  | "capability"
  | "typeName";

export const K9_CELL_KINDS: Readonly<Record<string, K9CellKind>> = {
  analysis_time: "analysisTime",
  principal_is_iam_admin: "boolean",
  principal_last_used: "time",
  password_last_used: "time",
  password_last_rotated: "time",
  access_key_1_last_used: "time",
  access_key_1_last_rotated: "time",
  access_key_2_last_used: "time",
  access_key_2_last_rotated: "time",
  password_state: "state",
  access_key_1_state: "state",
  access_key_2_state: "state",
  // Parsed by the pipeline's `json` filter (DD pipeline.json:71, :118, :198).
  principal_tags: "tags",
  resource_tags: "tags",
  access_capability: "capability",
  principal_type: "typeName",
  resource_type: "typeName",
};

/**
 * Formula escaping as Sightline's CSV writer does it (`'` before `=`, `+`, `-`, `@`, tab, CR or
 * their full-width forms). k9 escapes nothing, so such a cell would reach a SIEM with the `'`.
 */
export const FORMULA_ESCAPED = /^'[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
