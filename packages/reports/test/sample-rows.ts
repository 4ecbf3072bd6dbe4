import type {
  AnyReportRow,
  CellValue,
  ColumnType,
  PrincipalAccessReportRow,
  ReportColumn,
} from "../src/index.ts";

export const ANALYSIS_TIME = new Date("2026-03-04T07:15:36.947Z");

/** Values a spreadsheet or a naive CSV reader would get wrong. */
export const AWKWARD_NAMES = [
  "plain",
  "with,comma",
  'with "quotes"',
  "two\nlines",
  "carriage\r\nreturn",
  '=HYPERLINK("http://evil")',
  "+1",
  "-1",
  "@SUM(A1)",
  "\tleading tab",
  "\rleading CR",
  "ünïcödé ✓",
] as const;

/** Formula-injection escaping as the CSV cell must show it: a `'` before a dangerous start. */
export const csvShown = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** Synthetic principal-access rows; tags and resource ARNs repeat as the engine's do. */
export function* samplePrincipalAccessRows(count: number): Generator<PrincipalAccessReportRow> {
  const tags = [{ BusinessUnit: "Payments", "team:on-call": 'a "b", c' }, {}];
  const services = ["S3", "KMS", "IAM", "DynamoDB Accelerator (DAX)"];
  const capabilities = ["read-data", "write-data", "administer-resource", "read-config"];
  for (let i = 0; i < count; i++) {
    const name = i < AWKWARD_NAMES.length ? (AWKWARD_NAMES[i] as string) : `role-${i % 1000}`;
    const pattern = i % 3 === 0 ? "" : `arn:aws:s3:::bucket-${i % 300}/*`;
    yield {
      analysis_time: ANALYSIS_TIME,
      principal_name: name,
      principal_arn: `arn:aws:iam::111122223333:role/${name}`,
      principal_type: "IAMRole",
      principal_tags: tags[i % 2] as Record<string, string>,
      service_name: services[i % 4] as string,
      access_capability: capabilities[i % 4] as string,
      resource_arn: pattern,
      conditional: i % 5 === 0,
      except_resources: i % 7 === 0 ? ["arn:aws:s3:::secret/*"] : [],
      resource_pattern: pattern,
      granted_by:
        i % 2 === 0
          ? [{ policyType: "inline", policyName: 'a "quoted", name', sids: ["Read", "#1"] }]
          : [],
      except_resources_this_scope_only: [],
    };
  }
}

const PLACEHOLDERS: Readonly<Record<ColumnType, CellValue>> = {
  string: "x",
  boolean: false,
  timestamp: undefined,
  integer: 0,
  json: {},
};

/** A row of placeholders: "x", false, no timestamp, `{}`. */
export const placeholderRow = (columns: readonly ReportColumn[]): AnyReportRow =>
  Object.fromEntries(columns.map((column) => [column.name, PLACEHOLDERS[column.type]]));
