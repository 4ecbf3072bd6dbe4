import {
  GetGroupCommand,
  GetGroupPolicyCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  GetUserCommand,
  GetUserPolicyCommand,
  type IAMClient,
  paginateListAttachedGroupPolicies,
  paginateListAttachedRolePolicies,
  paginateListAttachedUserPolicies,
  paginateListGroupPolicies,
  paginateListGroupsForUser,
  paginateListRolePolicies,
  paginateListUserPolicies,
} from "@aws-sdk/client-iam";
import { toPlainJson } from "../collect/plain-json.ts";
import type { GaadEntry } from "./event-reads.ts";
import { GONE, incrementalCall } from "./incremental-call.ts";

export type PrincipalKind = "user" | "role" | "group";

/** The members of GAAD's entry that Get<Kind> answers (GetRole also answers others GAAD lacks). */
const SUMMARY: Record<PrincipalKind, readonly string[]> = {
  user: ["Path", "UserName", "UserId", "Arn", "CreateDate"],
  role: ["Path", "RoleName", "RoleId", "Arn", "CreateDate", "AssumeRolePolicyDocument"],
  group: ["Path", "GroupName", "GroupId", "Arn", "CreateDate"],
};
const TAIL: Record<PrincipalKind, readonly string[]> = {
  // PasswordLastUsed is no GAAD member: the reads take it out for the credential report.
  user: ["PermissionsBoundary", "Tags", "PasswordLastUsed"],
  role: ["PermissionsBoundary", "Tags", "RoleLastUsed"],
  group: [],
};

/** Collects every page's items of one list; undefined when the principal is gone. */
async function listAll<T>(pages: AsyncIterable<object>, member: string) {
  const items: T[] = [];
  for await (const page of pages) {
    items.push(...(((page as Record<string, unknown>)[member] as T[] | undefined) ?? []));
  }
  return items;
}

const pick = (from: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(
    fields.filter((field) => from[field] !== undefined).map((field) => [field, from[field]]),
  );

/**
 * A user, role or group in the shape of its GAAD entry: summary, inline policies with their
 * documents, attached policies, groups (a user's), boundary, tags, last use (a role's). `null`
 * when IAM no longer knows it. `InstanceProfileList` (roles) is the patch's to keep.
 */
export async function readPrincipal(
  iam: IAMClient,
  kind: PrincipalKind,
  name: string,
  arn: string,
): Promise<GaadEntry | null> {
  const call = <T>(action: string, read: () => Promise<T>) => incrementalCall(action, arn, read);
  const title = kind === "user" ? "User" : kind === "role" ? "Role" : "Group";
  const param = { [`${title}Name`]: name } as { UserName: string } & { RoleName: string } & {
    GroupName: string;
  };
  const got = await call(`iam:Get${title}`, async () => {
    if (kind === "user") return (await iam.send(new GetUserCommand(param))).User;
    if (kind === "role") return (await iam.send(new GetRoleCommand(param))).Role;
    return (await iam.send(new GetGroupCommand({ ...param, MaxItems: 1 }))).Group;
  });
  if (got === GONE || got === undefined) return null;
  const summary = toPlainJson(got) as Record<string, unknown>;
  const client = { client: iam };
  const inlineNames = await call(`iam:List${title}Policies`, () =>
    listAll<string>(
      kind === "user"
        ? paginateListUserPolicies(client, param)
        : kind === "role"
          ? paginateListRolePolicies(client, param)
          : paginateListGroupPolicies(client, param),
      "PolicyNames",
    ),
  );
  const attached = await call(`iam:ListAttached${title}Policies`, () =>
    listAll<object>(
      kind === "user"
        ? paginateListAttachedUserPolicies(client, param)
        : kind === "role"
          ? paginateListAttachedRolePolicies(client, param)
          : paginateListAttachedGroupPolicies(client, param),
      "AttachedPolicies",
    ),
  );
  if (inlineNames === GONE || attached === GONE) return null;
  const inline: GaadEntry[] = [];
  for (const policyName of inlineNames) {
    const document = await call(`iam:Get${title}Policy`, async () => {
      const input = { ...param, PolicyName: policyName };
      if (kind === "user") return (await iam.send(new GetUserPolicyCommand(input))).PolicyDocument;
      if (kind === "role") return (await iam.send(new GetRolePolicyCommand(input))).PolicyDocument;
      return (await iam.send(new GetGroupPolicyCommand(input))).PolicyDocument;
    });
    // A policy deleted between the listing and the read is gone from the entity too.
    if (document !== GONE)
      inline.push(toPlainJson({ PolicyName: policyName, PolicyDocument: document }) as GaadEntry);
  }
  let groups: string[] = [];
  if (kind === "user") {
    const found = await call("iam:ListGroupsForUser", () =>
      listAll<{ GroupName?: string }>(
        paginateListGroupsForUser(client, { UserName: name }),
        "Groups",
      ),
    );
    if (found === GONE) return null;
    groups = found.map((group) => group.GroupName ?? "");
  }
  return {
    ...pick(summary, SUMMARY[kind]),
    [`${title}PolicyList`]: inline,
    ...(kind === "user" ? { GroupList: groups } : {}),
    AttachedManagedPolicies: toPlainJson(attached),
    ...pick(summary, TAIL[kind]),
  };
}
