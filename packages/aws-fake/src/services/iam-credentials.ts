import { createHash } from "node:crypto";
import { FakeAwsError } from "../fake-errors.ts";
import type { FakeState } from "../fake-state.ts";
import {
  type CredentialRow,
  credentialRows,
  currentCredentialReport,
  meaningful,
} from "./iam-credential-report.ts";
import { findPrincipal } from "./iam-entities.ts";

/** An access key as the credential report's slot `n` (1 or 2) of a user describes it. */
export interface ReportedAccessKey {
  readonly userName: string;
  readonly accessKeyId: string;
  readonly slot: 1 | 2;
  readonly active: boolean;
  readonly createDate: string;
  readonly lastUsed?: {
    readonly date: string;
    readonly region?: string;
    readonly service?: string;
  };
}

/** The key ID of a slot: stable while the key is, new when it is rotated (another date). */
export function accessKeyIdOf(arn: string, slot: 1 | 2, created: string): string {
  const digest = createHash("sha256").update(`${arn}\n${slot}\n${created}`).digest();
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  return `AKIA${Array.from(digest.subarray(0, 16), (byte) => alphabet[byte % 32]).join("")}`;
}

/** The keys a report row lists: a slot with a rotation date holds one. */
export function keysOfRow(row: CredentialRow): ReportedAccessKey[] {
  const keys: ReportedAccessKey[] = [];
  for (const slot of [1, 2] as const) {
    const created = meaningful(row[`access_key_${slot}_last_rotated`]);
    if (!created) continue;
    const used = meaningful(row[`access_key_${slot}_last_used_date`]);
    const region = meaningful(row[`access_key_${slot}_last_used_region`]);
    const service = meaningful(row[`access_key_${slot}_last_used_service`]);
    keys.push({
      userName: row.user ?? "",
      accessKeyId: accessKeyIdOf(row.arn ?? "", slot, created),
      slot,
      active: row[`access_key_${slot}_active`] === "true",
      createDate: created,
      ...(used
        ? {
            lastUsed: {
              date: used,
              ...(region ? { region } : {}),
              ...(service ? { service } : {}),
            },
          }
        : {}),
    });
  }
  return keys;
}

/**
 * `ListAccessKeys`, `GetAccessKeyLastUsed` and `GetLoginProfile`, answered from the credential
 * report the account has now, so that they agree with `GetCredentialReport`. Undefined for
 * other operations.
 */
export function credentialRead(
  state: FakeState,
  operation: string,
  params: URLSearchParams,
): object | undefined {
  switch (operation) {
    case "ListAccessKeys": {
      const row = rowOfUser(state, params.get("UserName") ?? "");
      const keys = row ? keysOfRow(row) : [];
      const metadata = keys.map((key) => ({
        UserName: key.userName,
        AccessKeyId: key.accessKeyId,
        Status: key.active ? "Active" : "Inactive",
        CreateDate: key.createDate,
      }));
      return { AccessKeyMetadata: metadata, IsTruncated: false };
    }
    case "GetAccessKeyLastUsed": {
      const id = params.get("AccessKeyId") ?? "";
      const rows = credentialRows(currentCredentialReport(state)).rows;
      const key = rows.flatMap(keysOfRow).find((candidate) => candidate.accessKeyId === id);
      if (!key) throw new FakeAwsError("AccessDenied", "The access key ID is not valid.", 403);
      const used = key.lastUsed;
      return {
        UserName: key.userName,
        AccessKeyLastUsed: {
          ...(used ? { LastUsedDate: used.date } : {}),
          ServiceName: used?.service ?? "N/A",
          Region: used?.region ?? "N/A",
        },
      };
    }
    case "GetLoginProfile": {
      const name = params.get("UserName") ?? "";
      const row = rowOfUser(state, name);
      if (row?.password_enabled !== "true") {
        throw new FakeAwsError(
          "NoSuchEntity",
          `Login Profile for User ${name} cannot be found.`,
          404,
        );
      }
      const created = meaningful(row.password_last_changed) ?? row.user_creation_time;
      return {
        LoginProfile: { UserName: name, CreateDate: created, PasswordResetRequired: false },
      };
    }
    default:
      return undefined;
  }
}

function rowOfUser(state: FakeState, name: string): CredentialRow | undefined {
  const arn = String(findPrincipal(state, "User", name).Arn);
  return credentialRows(currentCredentialReport(state)).rows.find((row) => row.arn === arn);
}
