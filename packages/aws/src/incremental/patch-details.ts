import type { AuthorizationDetailsJson } from "../collect/read-authorization-details.ts";
import type { EventReads, GaadEntry } from "./event-reads.ts";
import { policyUses } from "./used-policies.ts";

type CountField = "AttachmentCount" | "PermissionsBoundaryUsageCount";
type Counts = Map<string, Partial<Record<CountField, number>>>;

const isAwsManaged = (arn: string) => /^arn:[^:]+:iam::aws:policy\//.test(arn);

/**
 * GAAD's lists with the read principals and policies replaced, added or removed, each entry
 * in GAAD's shape. Managed policies that were not read again get the attachment and boundary
 * counts the principals' changes imply; an AWS managed policy nothing uses any more leaves
 * `Policies`, as GAAD lists only those in use.
 */
export function patchDetails(
  previous: AuthorizationDetailsJson,
  reads: EventReads,
): AuthorizationDetailsJson {
  const counts: Counts = new Map();
  const users = Object.fromEntries(
    Object.entries(reads.users).map(([name, read]) => [name, read?.entry ?? null]),
  );
  const UserDetailList = patchList(previous.UserDetailList, "UserName", users, counts);
  const RoleDetailList = patchList(previous.RoleDetailList, "RoleName", reads.roles, counts);
  const GroupDetailList = patchList(previous.GroupDetailList, "GroupName", reads.groups, counts);
  // A deleted group is no user's any more (IAM refuses to delete a group with members).
  const deletedGroups = new Set(
    Object.keys(reads.groups).filter((name) => reads.groups[name] === null),
  );
  const withoutDeleted =
    deletedGroups.size === 0
      ? UserDetailList
      : UserDetailList.map((user) =>
          Array.isArray(user.GroupList) &&
          user.GroupList.some((group) => deletedGroups.has(String(group)))
            ? {
                ...user,
                GroupList: user.GroupList.filter((group) => !deletedGroups.has(String(group))),
              }
            : user,
        );
  const Policies = patchPolicies(previous.Policies, reads.policies, counts);
  return { UserDetailList: withoutDeleted, GroupDetailList, RoleDetailList, Policies };
}

function patchList(
  entries: readonly GaadEntry[],
  nameField: string,
  reads: Readonly<Record<string, GaadEntry | null>>,
  counts: Counts,
): GaadEntry[] {
  const list = [...entries];
  for (const [name, read] of Object.entries(reads)) {
    const index = list.findIndex((entry) => entry[nameField] === name);
    const old = index >= 0 ? list[index] : undefined;
    countChange(counts, old, read ?? undefined);
    if (read === null) {
      if (index >= 0) list.splice(index, 1);
      continue;
    }
    const entry = nameField === "RoleName" ? withInstanceProfiles(read, old) : read;
    if (index >= 0) list[index] = entry;
    else list.push(entry);
  }
  return list;
}

/**
 * A role's instance profiles are not among the reads (no policy event changes them): the
 * previous entry's stay, a new role has none yet.
 */
function withInstanceProfiles(read: GaadEntry, old: GaadEntry | undefined): GaadEntry {
  if (old === undefined) return { ...read, InstanceProfileList: [] };
  return old.InstanceProfileList === undefined
    ? read
    : { ...read, InstanceProfileList: old.InstanceProfileList };
}

function countChange(counts: Counts, old: GaadEntry | undefined, next: GaadEntry | undefined) {
  const add = (arn: string, field: CountField, delta: number) => {
    const count = counts.get(arn) ?? {};
    count[field] = (count[field] ?? 0) + delta;
    counts.set(arn, count);
  };
  const before = old ? policyUses(old) : { attached: [] };
  const after = next ? policyUses(next) : { attached: [] };
  for (const arn of before.attached)
    if (!after.attached.includes(arn)) add(arn, "AttachmentCount", -1);
  for (const arn of after.attached)
    if (!before.attached.includes(arn)) add(arn, "AttachmentCount", 1);
  if (before.boundary !== after.boundary) {
    if (before.boundary) add(before.boundary, "PermissionsBoundaryUsageCount", -1);
    if (after.boundary) add(after.boundary, "PermissionsBoundaryUsageCount", 1);
  }
}

function patchPolicies(
  entries: readonly GaadEntry[],
  reads: Readonly<Record<string, GaadEntry | null>>,
  counts: Counts,
): GaadEntry[] {
  let list = [...entries];
  for (const [arn, read] of Object.entries(reads)) {
    const index = list.findIndex((entry) => entry.Arn === arn);
    if (read === null) {
      if (index >= 0) list.splice(index, 1);
    } else if (index >= 0) list[index] = read;
    else list.push(read);
  }
  for (const [arn, count] of counts) {
    // A policy read again already has IAM's counts.
    if (arn in reads) continue;
    list = list.flatMap((entry) => {
      if (entry.Arn !== arn) return [entry];
      const counted: GaadEntry = { ...entry };
      for (const [field, delta] of Object.entries(count))
        counted[field] = Number(entry[field] ?? 0) + delta;
      const used =
        Number(counted.AttachmentCount ?? 0) + Number(counted.PermissionsBoundaryUsageCount ?? 0);
      return isAwsManaged(arn) && used <= 0 ? [] : [counted];
    });
  }
  return list;
}
