import type { PrincipalRow } from "@sightline/engine";
import type { PrincipalReportRow } from "../columns/report-columns.ts";
import type { ReportContext } from "./report-context.ts";
import type {
  AccessKeyCredential,
  PasswordCredential,
  UserCredentials,
} from "./report-metadata.ts";

// k9's values: a credential that exists has a state, one that does not leaves every column blank.
const passwordState = (password: PasswordCredential | undefined) =>
  password === undefined ? "" : password.active === false ? "Inactive" : "Active";
const keyState = (key: AccessKeyCredential | undefined) =>
  key === undefined ? "" : key.active ? "Active" : "Inactive";

function latest(...dates: (Date | undefined)[]): Date | undefined {
  let found: Date | undefined;
  for (const date of dates) if (date && (!found || date > found)) found = date;
  return found;
}

const lastUsedByCredentials = (credentials: UserCredentials | undefined) =>
  latest(
    credentials?.password?.lastUsed,
    credentials?.accessKey1?.lastUsed,
    credentials?.accessKey2?.lastUsed,
  );

/**
 * One row of the principals report. `principal_is_iam_admin` is true when the principal can
 * administer IAM, also when only under conditions (such as MFA): an auditor looking for admins
 * must see it; `principal_is_iam_admin_conditional` tells the two apart.
 */
const NONE: readonly never[] = Object.freeze([]);

export function buildPrincipalRow(row: PrincipalRow, context: ReportContext): PrincipalReportRow {
  const metadata = context.principalMetadata(row.principalArn);
  const credentials = metadata?.credentials;
  const tags = context.principal(row.principalArn)?.wellKnownTags ?? {};
  return {
    analysis_time: context.analysisTime,
    principal_name: row.principalName,
    principal_arn: row.principalArn,
    principal_type: row.principalType,
    principal_is_iam_admin: row.iamAdmin !== "no",
    principal_last_used: metadata?.lastUsed ?? lastUsedByCredentials(credentials),
    principal_tag_business_unit: tags.business_unit ?? "",
    principal_tag_environment: tags.environment ?? "",
    principal_tag_used_by: tags.used_by ?? "",
    principal_tags: row.tags,
    password_last_used: credentials?.password?.lastUsed,
    password_last_rotated: credentials?.password?.lastRotated,
    password_state: passwordState(credentials?.password),
    access_key_1_last_used: credentials?.accessKey1?.lastUsed,
    access_key_1_last_rotated: credentials?.accessKey1?.lastRotated,
    access_key_1_state: keyState(credentials?.accessKey1),
    access_key_2_last_used: credentials?.accessKey2?.lastUsed,
    access_key_2_last_rotated: credentials?.accessKey2?.lastRotated,
    access_key_2_state: keyState(credentials?.accessKey2),
    principal_account_id: row.accountId,
    principal_is_iam_admin_conditional: row.iamAdmin === "conditional",
    group_arns: row.groupArns,
    permissions_boundary_arn: row.permissionsBoundaryArn ?? "",
    iam_admin_path: metadata?.iamAdminPath ?? [],
    iam_admin_granted_by: row.iamAdminGrantedBy ?? NONE,
    iam_admin_actions: row.iamAdminActions ?? NONE,
  };
}

export function* principalReportRows(
  rows: Iterable<PrincipalRow>,
  context: ReportContext,
): Generator<PrincipalReportRow> {
  for (const row of rows) yield buildPrincipalRow(row, context);
}
