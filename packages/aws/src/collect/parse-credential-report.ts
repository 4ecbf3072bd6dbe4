import type { AccessKeyUse, CredentialReportRow } from "@sightline/domain";
import { parseCsv } from "./parse-csv.ts";

// The report's types live in `@sightline/domain`, which the reports share.
export type { AccessKeyUse, CredentialReport, CredentialReportRow } from "@sightline/domain";

/** Values the report uses for "nothing to say". */
const NO_VALUE = new Set(["", "N/A", "no_information", "not_supported"]);

/** Parses the report's CSV by column name, so added columns do not shift the others. */
export function parseCredentialReport(csv: string): CredentialReportRow[] {
  const [header, ...records] = parseCsv(csv);
  if (!header) return [];
  return records
    .filter((record) => record.length > 1)
    .map((record) => {
      const get = (column: string) => meaningful(record[header.indexOf(column)]);
      const key = (n: 1 | 2): AccessKeyUse => ({
        active: get(`access_key_${n}_active`) === "true",
        lastRotated: toIso(get(`access_key_${n}_last_rotated`)),
        lastUsedDate: toIso(get(`access_key_${n}_last_used_date`)),
        lastUsedRegion: get(`access_key_${n}_last_used_region`),
        lastUsedService: get(`access_key_${n}_last_used_service`),
      });
      const password = get("password_enabled");
      return {
        user: get("user") ?? "",
        arn: get("arn") ?? "",
        userCreationTime: toIso(get("user_creation_time")),
        passwordEnabled: password === undefined ? undefined : password === "true",
        passwordLastUsed: toIso(get("password_last_used")),
        passwordLastChanged: toIso(get("password_last_changed")),
        passwordNextRotation: toIso(get("password_next_rotation")),
        mfaActive: get("mfa_active") === "true",
        accessKeys: [key(1), key(2)] as const,
      };
    });
}

function meaningful(raw: string | undefined): string | undefined {
  return raw === undefined || NO_VALUE.has(raw) ? undefined : raw;
}

function toIso(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}
