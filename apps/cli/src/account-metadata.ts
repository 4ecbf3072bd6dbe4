import type { BucketMetadata, KeyMetadata, RoleLastUsed } from "@sightline/domain";
import { type AccountModel, type AccountSnapshot, parseArn } from "@sightline/engine";
import type { AccountReportMetadata } from "@sightline/reports";

interface RoleDetail {
  Arn?: unknown;
  RoleLastUsed?: { LastUsedDate?: unknown; Region?: unknown };
}

/**
 * `principal_last_used` of the roles: the authorization details carry each role's
 * `RoleLastUsed.LastUsedDate`. Users' last use needs the credential report, which the command
 * line does not read. A date that does not parse is left out.
 */
export function roleLastUsed(snapshots: readonly AccountSnapshot[]): Record<string, RoleLastUsed> {
  const lastUsed: Record<string, RoleLastUsed> = {};
  for (const { authorizationDetails } of snapshots) {
    const roles = (authorizationDetails as { RoleDetailList?: unknown } | null)?.RoleDetailList;
    if (!Array.isArray(roles)) continue;
    for (const role of roles as RoleDetail[]) {
      const used = role?.RoleLastUsed;
      const date = typeof used?.LastUsedDate === "string" ? used.LastUsedDate : undefined;
      if (typeof role?.Arn !== "string" || !date || Number.isNaN(new Date(date).getTime()))
        continue;
      const region = typeof used?.Region === "string" ? { region: used.Region } : {};
      lastUsed[role.Arn] = { lastUsedDate: date, ...region };
    }
  }
  return lastUsed;
}

/**
 * What the reports show beside the analysis, as far as the files tell it: the roles' last use,
 * and the buckets and keys the files place in an account, untagged (bucket lists and policies
 * carry no tags). Like a collection's, these name the resources a grant's pattern covers. No
 * credential report: users have no last use or credentials. Several accounts are named together.
 */
export function accountMetadataOf(
  model: AccountModel,
  snapshots: readonly AccountSnapshot[],
): AccountReportMetadata {
  const buckets: Record<string, BucketMetadata> = {};
  for (const arn of model.bucketOwners.keys())
    buckets[arn] = { name: parseArn(arn)?.resource ?? arn, tags: {} };
  const keys: Record<string, KeyMetadata> = {};
  for (const arn of model.resourcePolicies.keys()) {
    const parsed = parseArn(arn);
    if (parsed?.service !== "kms" || !parsed.resource.startsWith("key/")) continue;
    keys[arn] = { keyId: parsed.resource.slice(4), region: parsed.region, aliases: [], tags: {} };
  }
  return {
    accountId: [...model.accounts.keys()].join(", "),
    roleLastUsed: roleLastUsed(snapshots),
    buckets,
    keys,
  };
}
