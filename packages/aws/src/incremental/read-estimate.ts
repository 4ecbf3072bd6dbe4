import type { AwsEventTarget } from "@sightline/domain";
import type { CollectedAccount } from "../collect/collection-types.ts";
import { sortTargets } from "./sort-targets.ts";

/** GAAD's page: `read-authorization-details.ts` asks for the most IAM allows. */
const GAAD_PAGE = 1000;

type Entry = Record<string, unknown>;
type Kind = "user" | "role" | "group";
const LIST: Record<Kind, string> = {
  user: "UserDetailList",
  role: "RoleDetailList",
  group: "GroupDetailList",
};
const INLINE: Record<Kind, string> = {
  user: "UserPolicyList",
  role: "RolePolicyList",
  group: "GroupPolicyList",
};
const NAME: Record<Kind, string> = { user: "UserName", role: "RoleName", group: "GroupName" };

/**
 * The AWS calls `readEventTargets` would make for these targets, counted from the snapshot they
 * patch (a principal's inline policies as it knew them; one for a principal it does not know).
 * A principal: its `Get*`, the two policy listings, one `Get*Policy` per inline policy; a user
 * also `ListGroupsForUser`, and with credentials `GetLoginProfile`, `ListAccessKeys` and
 * `GetAccessKeyLastUsed` (counted once: a user has one key most often, two at most). A managed
 * policy: `GetPolicy`, `ListPolicyVersions` and one `GetPolicyVersion` per version it had. A
 * bucket: location, policy, tags. A key: aliases, `DescribeKey`, policy, tags. The organisation
 * is not counted: a full collection reads it the same way. Managed policies that a read
 * principal newly uses are not known beforehand and not counted.
 */
export function incrementalReadCalls(
  targets: readonly AwsEventTarget[],
  previous: CollectedAccount,
): number {
  const wanted = sortTargets(targets);
  const details = previous.snapshot.authorizationDetails as Record<string, Entry[] | undefined>;
  const inline = (kind: Kind) => {
    const byName = new Map<string, number>();
    for (const entry of details?.[LIST[kind]] ?? []) {
      const policies = entry[INLINE[kind]];
      byName.set(String(entry[NAME[kind]]), Array.isArray(policies) ? policies.length : 0);
    }
    return (name: string) => byName.get(name) ?? 1;
  };
  const userInline = inline("user");
  const roleInline = inline("role");
  const groupInline = inline("group");
  let calls = 0;
  for (const [name, credentials] of wanted.users) {
    calls += 4 + userInline(name) + (credentials ? 3 : 0);
  }
  for (const name of wanted.roles) calls += 3 + roleInline(name);
  for (const name of wanted.groups) calls += 3 + groupInline(name);
  const versions = new Map<string, number>();
  for (const policy of details?.Policies ?? []) {
    const list = policy.PolicyVersionList;
    versions.set(String(policy.Arn), Array.isArray(list) ? list.length : 1);
  }
  for (const arn of wanted.policies) calls += 2 + (versions.get(arn) ?? 1);
  calls += 3 * wanted.buckets.size + 4 * wanted.keys.size;
  return calls;
}

/**
 * The AWS calls a full collection of the account would make, counted from its previous
 * collection: the caller's identity, GAAD's pages, the credential report (generated, polled once,
 * read), the bucket listing and three reads per bucket, the regions, each region's key listing,
 * the alias listing of each region that has keys, `DescribeKey` for every key and its policy and
 * tags for a customer's. The organisation is not counted (see `incrementalReadCalls`).
 */
export function fullCollectionCalls(previous: CollectedAccount): number {
  const { snapshot } = previous;
  const details = snapshot.authorizationDetails as Record<string, Entry[] | undefined>;
  const entities = Object.values(LIST)
    .concat("Policies")
    .reduce((sum, list) => sum + (details?.[list]?.length ?? 0), 0);
  // A snapshot stored by an older release, or by hand for an organisation, may lack parts.
  const metadata = previous.metadata as Partial<CollectedAccount["metadata"]> | undefined;
  const buckets = Object.keys(metadata?.buckets ?? {}).length;
  const keys = Object.keys(metadata?.keys ?? {});
  const awsManagedKeys = snapshot.awsManagedKeys ?? [];
  const regions = metadata?.regions?.length ?? 1;
  const regionsWithKeys = new Set([...keys, ...awsManagedKeys].map((arn) => arn.split(":")[3]));
  const gaadPages = Math.max(1, Math.ceil(entities / GAAD_PAGE));
  return (
    1 +
    gaadPages +
    3 +
    (1 + 3 * buckets) +
    1 +
    regions +
    regionsWithKeys.size +
    (keys.length + awsManagedKeys.length) +
    2 * keys.length
  );
}
