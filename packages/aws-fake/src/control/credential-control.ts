import { FakeAwsError } from "../fake-errors.ts";
import type { GaadEntry } from "../fake-model.ts";
import type { FakeState } from "../fake-state.ts";
import {
  type CredentialRow,
  credentialCsv,
  credentialRows,
  currentCredentialReport,
  meaningful,
} from "../services/iam-credential-report.ts";
import { keysOfRow } from "../services/iam-credentials.ts";
import { reportDate } from "../services/iam-documents.ts";
import { type ControlContext, findEntry, replaceModel } from "./model-edits.ts";

const KEY_COLUMNS = [
  "active",
  "last_rotated",
  "last_used_date",
  "last_used_region",
  "last_used_service",
];

/** Changes the credential report's rows; the model keeps the report as CSV from then on. */
function editRows(state: FakeState, edit: (rows: CredentialRow[]) => CredentialRow[]): void {
  const { columns, rows } = credentialRows(currentCredentialReport(state));
  replaceModel(state, { credentialReportCsv: credentialCsv(columns, edit(rows)) });
}

function editUserRow(
  state: FakeState,
  userName: string,
  edit: (row: CredentialRow) => CredentialRow,
) {
  const arn = String(findEntry(state, "user", userName).Arn);
  editRows(state, (rows) => rows.map((row) => (row.arn === arn ? edit({ ...row }) : row)));
}

/** A new user's row: no password, no keys. */
export function addCredentialRow(state: FakeState, user: GaadEntry): void {
  const row: CredentialRow = {
    user: String(user.UserName),
    arn: String(user.Arn),
    user_creation_time: reportDate(user.CreateDate),
    password_enabled: "false",
    mfa_active: "false",
  };
  // A report derived from the users already has the new user's row.
  editRows(state, (rows) => (rows.some((r) => r.arn === row.arn) ? rows : [...rows, row]));
}

export function removeCredentialRow(state: FakeState, arn: string): void {
  editRows(state, (rows) => rows.filter((row) => row.arn !== arn));
}

function clearSlot(row: CredentialRow, slot: 1 | 2): void {
  for (const column of KEY_COLUMNS) {
    row[`access_key_${slot}_${column}`] = column === "active" ? "false" : "N/A";
  }
}

/** A new active access key in the first free slot (IAM allows two); its ID. */
export function createAccessKey(ctx: ControlContext, userName: string): string {
  let created = ctx.now();
  let keyId = "";
  editUserRow(ctx.state, userName, (row) => {
    const keys = keysOfRow(row);
    if (keys.length >= 2)
      throw new FakeAwsError("LimitExceeded", "Cannot exceed quota for AccessKeysPerUser: 2", 409);
    // Keys are told apart by creation time: a second key of the same second is a second later.
    if (keys[0] && reportDate(created.toISOString()) === keys[0].createDate) {
      created = new Date(created.getTime() + 1000);
    }
    const slot = keys.length === 0 ? 1 : 2;
    clearSlot(row, slot);
    row[`access_key_${slot}_active`] = "true";
    row[`access_key_${slot}_last_rotated`] = reportDate(created.toISOString());
    keyId = keysOfRow(row).find((key) => key.slot === slot)?.accessKeyId ?? "";
    return row;
  });
  const accessKey = {
    userName,
    accessKeyId: keyId,
    status: "Active",
    createDate: created.toISOString(),
  };
  ctx.emit({
    service: "iam",
    eventName: "CreateAccessKey",
    region: "us-east-1",
    requestParameters: { userName },
    responseElements: { accessKey },
  });
  return keyId;
}

/** `UpdateAccessKey` (status `Active`/`Inactive`) or, with `undefined`, `DeleteAccessKey`. */
export function changeAccessKey(
  ctx: ControlContext,
  userName: string,
  accessKeyId: string,
  status: "Active" | "Inactive" | undefined,
): void {
  editUserRow(ctx.state, userName, (row) => {
    const key = keysOfRow(row).find((candidate) => candidate.accessKeyId === accessKeyId);
    if (!key)
      throw new FakeAwsError(
        "NoSuchEntity",
        `The Access Key with id ${accessKeyId} cannot be found.`,
        404,
      );
    if (status) {
      row[`access_key_${key.slot}_active`] = String(status === "Active");
      return row;
    }
    // The report lists a user's keys oldest first: the second moves up when the first goes.
    if (key.slot === 1) {
      for (const column of KEY_COLUMNS)
        row[`access_key_1_${column}`] = row[`access_key_2_${column}`] ?? "N/A";
    }
    clearSlot(row, 2);
    return row;
  });
  ctx.emit({
    service: "iam",
    eventName: status ? "UpdateAccessKey" : "DeleteAccessKey",
    region: "us-east-1",
    requestParameters: { userName, accessKeyId, ...(status ? { status } : {}) },
  });
}

/** `CreateLoginProfile` (`true`) or `DeleteLoginProfile` (`false`). */
export function setLoginProfile(ctx: ControlContext, userName: string, enabled: boolean): void {
  const now = ctx.now();
  editUserRow(ctx.state, userName, (row) => {
    const has = row.password_enabled === "true";
    if (has === enabled) {
      throw enabled
        ? new FakeAwsError(
            "EntityAlreadyExists",
            `Login Profile for user ${userName} already exists.`,
            409,
          )
        : new FakeAwsError(
            "NoSuchEntity",
            `Login Profile for User ${userName} cannot be found.`,
            404,
          );
    }
    row.password_enabled = String(enabled);
    row.password_last_changed = enabled ? reportDate(now.toISOString()) : "N/A";
    if (!enabled && meaningful(row.password_last_used) === undefined)
      row.password_last_used = "N/A";
    return row;
  });
  const loginProfile = { userName, createDate: now.toISOString(), passwordResetRequired: false };
  ctx.emit({
    service: "iam",
    eventName: enabled ? "CreateLoginProfile" : "DeleteLoginProfile",
    region: "us-east-1",
    requestParameters: enabled ? { userName, passwordResetRequired: false } : { userName },
    ...(enabled ? { responseElements: { loginProfile } } : {}),
  });
}
