import type { FakeState } from "../fake-state.ts";
import { defaultCredentialReport } from "./iam-documents.ts";

/** One row of the credential report, by IAM's column names. */
export type CredentialRow = Record<string, string>;

/** The credential report the account has now: the model's CSV, or one derived from its users. */
export function currentCredentialReport(state: FakeState): string {
  return (
    state.model.credentialReportCsv ??
    defaultCredentialReport(
      state.model.accountId,
      state.model.partition ?? "aws",
      state.model.authorizationDetails?.UserDetailList ?? [],
    )
  );
}

/** The report's rows (IAM writes no quoted values: names and ARNs hold no commas). */
export function credentialRows(csv: string): { columns: string[]; rows: CredentialRow[] } {
  const [header = "", ...lines] = csv.split("\n").filter((line) => line.trim() !== "");
  const columns = header.split(",");
  const rows = lines.map((line) => {
    const values = line.split(",");
    return Object.fromEntries(columns.map((column, i) => [column, values[i] ?? "N/A"]));
  });
  return { columns, rows };
}

export function credentialCsv(columns: readonly string[], rows: readonly CredentialRow[]): string {
  const lines = rows.map((row) => columns.map((column) => row[column] ?? "N/A").join(","));
  return `${[columns.join(","), ...lines].join("\n")}\n`;
}

/** The user's row of the current report. */
export function credentialRow(state: FakeState, arn: string): CredentialRow | undefined {
  return credentialRows(currentCredentialReport(state)).rows.find((row) => row.arn === arn);
}

/** The report's "nothing to say" values as undefined. */
export function meaningful(value: string | undefined): string | undefined {
  return value === undefined || ["", "N/A", "no_information", "not_supported"].includes(value)
    ? undefined
    : value;
}
