import { FakeAwsError } from "../fake-errors.ts";
import type { GaadEntry } from "../fake-model.ts";
import { partitionOf } from "../fake-state.ts";
import { addCredentialRow, removeCredentialRow } from "./credential-control.ts";
import { emitIam as iam, documentText as json, nameParam } from "./iam-events.ts";
import {
  type ControlContext,
  countUse,
  details,
  findEntry,
  iamDate,
  PRINCIPALS,
  type PrincipalKind,
  principalId,
  replaceDetails,
  titleOf,
  updatePrincipal,
  usesOf,
} from "./model-edits.ts";

export function updateAssumeRolePolicy(ctx: ControlContext, role: string, document: unknown) {
  updatePrincipal(ctx.state, "role", role, (entry) => ({
    ...entry,
    AssumeRolePolicyDocument: document,
  }));
  iam(ctx, "UpdateAssumeRolePolicy", { roleName: role, policyDocument: json(document) });
}

export function setGroupMembership(
  ctx: ControlContext,
  group: string,
  user: string,
  member: boolean,
) {
  findEntry(ctx.state, "group", group);
  updatePrincipal(ctx.state, "user", user, (entry) => {
    const others = ((entry.GroupList ?? []) as string[]).filter((name) => name !== group);
    return { ...entry, GroupList: member ? [...others, group] : others };
  });
  iam(ctx, member ? "AddUserToGroup" : "RemoveUserFromGroup", { groupName: group, userName: user });
}

/** Adds or replaces tags (`TagUser`, `TagRole`), or removes the keys given (`Untag…`). */
export function tagPrincipal(
  ctx: ControlContext,
  kind: "user" | "role",
  name: string,
  change:
    | { readonly tags: Readonly<Record<string, string>> }
    | { readonly untag: readonly string[] },
) {
  const removed = "tags" in change ? Object.keys(change.tags) : change.untag;
  updatePrincipal(ctx.state, kind, name, (entry) => {
    const kept = ((entry.Tags ?? []) as { Key: string }[]).filter(
      (tag) => !removed.includes(tag.Key),
    );
    const added =
      "tags" in change ? Object.entries(change.tags).map(([Key, Value]) => ({ Key, Value })) : [];
    return { ...entry, Tags: [...kept, ...added] };
  });
  const params =
    "tags" in change
      ? { tags: Object.entries(change.tags).map(([key, value]) => ({ key, value })) }
      : { tagKeys: change.untag };
  iam(ctx, `${"tags" in change ? "Tag" : "Untag"}${titleOf(kind)}`, {
    ...nameParam(kind, name),
    ...params,
  });
}

/** Creates a user, role (with its trust policy) or group, as IAM's Create<Kind> does. */
export function createPrincipal(
  ctx: ControlContext,
  kind: PrincipalKind,
  name: string,
  trustPolicy?: unknown,
) {
  const { list, name: field, inline } = PRINCIPALS[kind];
  if (details(ctx.state)[list].some((entry) => entry[field] === name)) {
    throw new FakeAwsError(
      "EntityAlreadyExists",
      `${titleOf(kind)} with name ${name} already exists.`,
      409,
    );
  }
  const summary = {
    Path: "/",
    [field]: name,
    [`${titleOf(kind)}Id`]: principalId(kind),
    Arn: `arn:${partitionOf(ctx.state)}:iam::${ctx.state.model.accountId}:${kind}/${name}`,
    CreateDate: iamDate(ctx.now()),
  };
  const entry: GaadEntry = {
    ...summary,
    ...(kind === "role"
      ? { AssumeRolePolicyDocument: trustPolicy ?? {}, InstanceProfileList: [] }
      : {}),
    ...(kind === "user" ? { GroupList: [] } : {}),
    [inline]: [],
    AttachedManagedPolicies: [],
    ...(kind === "group" ? {} : { Tags: [] }),
  };
  replaceDetails(ctx.state, { [list]: [...details(ctx.state)[list], entry] });
  if (kind === "user") addCredentialRow(ctx.state, entry);
  const params =
    kind === "role"
      ? { roleName: name, assumeRolePolicyDocument: json(trustPolicy ?? {}) }
      : nameParam(kind, name);
  iam(ctx, `Create${titleOf(kind)}`, params, { [kind]: { ...summary } });
}

/**
 * Deletes a user or role with what it holds (IAM makes the caller remove those first: one
 * event stands for all). A group that still has members is refused, as IAM refuses it.
 */
export function deletePrincipal(ctx: ControlContext, kind: PrincipalKind, name: string) {
  const entry = findEntry(ctx.state, kind, name);
  if (kind === "group") {
    const members = details(ctx.state).UserDetailList.filter((user) =>
      ((user.GroupList ?? []) as string[]).includes(name),
    );
    if (members.length > 0) {
      throw new FakeAwsError(
        "DeleteConflict",
        "Cannot delete entity, must remove users from group first.",
        409,
      );
    }
  }
  const { attached, boundary } = usesOf(entry);
  for (const arn of attached) countUse(ctx.state, arn, "AttachmentCount", -1);
  if (boundary) countUse(ctx.state, boundary, "PermissionsBoundaryUsageCount", -1);
  const { list, name: field } = PRINCIPALS[kind];
  replaceDetails(ctx.state, { [list]: details(ctx.state)[list].filter((e) => e[field] !== name) });
  if (kind === "user") removeCredentialRow(ctx.state, String(entry.Arn));
  iam(ctx, `Delete${titleOf(kind)}`, nameParam(kind, name));
}
