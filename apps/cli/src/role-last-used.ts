import type { AccountSnapshot } from "@sightline/engine";
import type { PrincipalMetadata } from "@sightline/reports";

interface RoleDetail {
  Arn?: unknown;
  RoleLastUsed?: { LastUsedDate?: unknown };
}

/**
 * `principal_last_used` of the roles: the authorization details carry each role's
 * `RoleLastUsed.LastUsedDate`. Users' last use needs the credential report, which the command
 * line does not read. A date that does not parse is left out.
 */
export function roleLastUsed(
  snapshots: readonly AccountSnapshot[],
): Map<string, PrincipalMetadata> {
  const metadata = new Map<string, PrincipalMetadata>();
  for (const { authorizationDetails } of snapshots) {
    const roles = (authorizationDetails as { RoleDetailList?: unknown } | null)?.RoleDetailList;
    if (!Array.isArray(roles)) continue;
    for (const role of roles as RoleDetail[]) {
      const used = role?.RoleLastUsed?.LastUsedDate;
      const lastUsed = typeof used === "string" ? new Date(used) : undefined;
      if (typeof role?.Arn === "string" && lastUsed && !Number.isNaN(lastUsed.getTime())) {
        metadata.set(role.Arn, { lastUsed });
      }
    }
  }
  return metadata;
}
