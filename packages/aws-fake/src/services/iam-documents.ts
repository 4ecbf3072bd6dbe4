import type { GaadEntry } from "../fake-model.ts";

const DOCUMENT_FIELDS = new Set(["PolicyDocument", "AssumeRolePolicyDocument", "Document"]);

/** A GAAD entry as IAM sends it: every policy document JSON-encoded, then URL-encoded. */
export function encodeDocuments(value: unknown, field?: string): unknown {
  if (field !== undefined && DOCUMENT_FIELDS.has(field)) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return encodeURIComponent(text);
  }
  if (Array.isArray(value)) return value.map((item) => encodeDocuments(item));
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, encodeDocuments(member, key)]),
    );
  }
  return value;
}

const REPORT_COLUMNS = [
  "user",
  "arn",
  "user_creation_time",
  "password_enabled",
  "password_last_used",
  "password_last_changed",
  "password_next_rotation",
  "mfa_active",
  "access_key_1_active",
  "access_key_1_last_rotated",
  "access_key_1_last_used_date",
  "access_key_1_last_used_region",
  "access_key_1_last_used_service",
  "access_key_2_active",
  "access_key_2_last_rotated",
  "access_key_2_last_used_date",
  "access_key_2_last_used_region",
  "access_key_2_last_used_service",
  "cert_1_active",
  "cert_1_last_rotated",
  "cert_2_active",
  "cert_2_last_rotated",
];

const DEFAULT_CREATED = "2024-01-01T00:00:00+00:00";

/** A date as the credential report writes it (`2024-01-01T00:00:00+00:00`). */
export function reportDate(value: unknown): string {
  const time = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) return DEFAULT_CREATED;
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** A credential report in which nobody has a password or an access key. */
export function defaultCredentialReport(
  accountId: string,
  partition: string,
  users: readonly GaadEntry[],
): string {
  const row = (user: string, arn: string, password: string, created = DEFAULT_CREATED) =>
    [
      user,
      arn,
      created,
      password,
      "N/A",
      "N/A",
      "N/A",
      "false",
      "false",
      "N/A",
      "N/A",
      "N/A",
      "N/A",
    ]
      .concat(["false", "N/A", "N/A", "N/A", "N/A", "false", "N/A", "false", "N/A"])
      .join(",");
  const lines = [
    REPORT_COLUMNS.join(","),
    row("<root_account>", `arn:${partition}:iam::${accountId}:root`, "not_supported"),
    ...users.map((user) =>
      row(String(user.UserName), String(user.Arn), "false", reportDate(user.CreateDate)),
    ),
  ];
  return `${lines.join("\n")}\n`;
}

/** One user of a credential report: IAM's column names, each value as IAM writes it. */
export type CredentialReportUser = { user: string; arn: string } & Partial<
  Record<(typeof REPORT_COLUMNS)[number], string>
>;

/**
 * A credential report of these users, as IAM writes it: every column this one does not give is
 * `N/A` (`false` for the `_active` flags and `password_enabled`; `not_supported` for the root
 * user's password, `<root_account>`).
 */
export function credentialReportCsv(users: readonly CredentialReportUser[]): string {
  const fallback = (column: string, user: string) =>
    column === "password_enabled"
      ? user === "<root_account>"
        ? "not_supported"
        : "false"
      : column.endsWith("_active")
        ? "false"
        : "N/A";
  const lines = users.map((row) =>
    REPORT_COLUMNS.map(
      (column) => (row as Record<string, string | undefined>)[column] ?? fallback(column, row.user),
    ).join(","),
  );
  return `${[REPORT_COLUMNS.join(","), ...lines].join("\n")}\n`;
}
