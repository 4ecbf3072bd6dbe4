import { FakeAwsError } from "../fake-errors.ts";
import type { GaadEntry } from "../fake-model.ts";
import type { FakeState } from "../fake-state.ts";
import { credentialRow, meaningful } from "./iam-credential-report.ts";
import { encodeDocuments } from "./iam-documents.ts";

/** The GAAD list, name field, inline list and IAM's word for each kind of principal. */
const KINDS = {
  User: { list: "UserDetailList", name: "UserName", inline: "UserPolicyList" },
  Role: { list: "RoleDetailList", name: "RoleName", inline: "RolePolicyList" },
  Group: { list: "GroupDetailList", name: "GroupName", inline: "GroupPolicyList" },
} as const;
export type PrincipalKind = keyof typeof KINDS;

/** The members GetUser, GetRole and GetGroup answer, as GAAD holds them. */
const SUMMARY_FIELDS: Record<PrincipalKind, readonly string[]> = {
  User: ["Path", "UserName", "UserId", "Arn", "CreateDate", "PermissionsBoundary", "Tags"],
  Role: [
    "Path",
    "RoleName",
    "RoleId",
    "Arn",
    "CreateDate",
    "AssumeRolePolicyDocument",
    "PermissionsBoundary",
    "Tags",
    "RoleLastUsed",
  ],
  Group: ["Path", "GroupName", "GroupId", "Arn", "CreateDate"],
};

/** The principal's GAAD entry; `NoSuchEntity` as IAM words it when there is none. */
export function findPrincipal(state: FakeState, kind: PrincipalKind, name: string): GaadEntry {
  const { list, name: field } = KINDS[kind];
  const entry = (state.model.authorizationDetails?.[list] ?? []).find((e) => e[field] === name);
  if (!entry) {
    const word = kind.toLowerCase();
    throw new FakeAwsError("NoSuchEntity", `The ${word} with name ${name} cannot be found.`, 404);
  }
  return entry;
}

/** The members of a GAAD entry that Get<Kind> answers, documents encoded as IAM sends them. */
export function principalSummary(kind: PrincipalKind, entry: GaadEntry): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const field of SUMMARY_FIELDS[kind]) {
    if (entry[field] !== undefined) summary[field] = entry[field];
  }
  return encodeDocuments(summary) as Record<string, unknown>;
}

/**
 * The per-principal IAM reads (`GetUser`, `ListRolePolicies`, `GetGroupPolicy`, …), answered
 * from the same GAAD entries that `GetAccountAuthorizationDetails` pages through. Undefined
 * when the operation is not one of them.
 */
export function principalRead(
  state: FakeState,
  operation: string,
  params: URLSearchParams,
): object | undefined {
  const match = /^(Get|ListAttached|List)(User|Role|Group)(Policy|Policies|Tags)?s?$/.exec(
    operation,
  );
  if (!match) return operation === "ListGroupsForUser" ? groupsForUser(state, params) : undefined;
  const [, verb, kindName, what] = match as unknown as [string, string, PrincipalKind, string?];
  const name = params.get(`${kindName}Name`) ?? "";
  const entry = findPrincipal(state, kindName, name);
  const inline = (entry[KINDS[kindName].inline] ?? []) as GaadEntry[];
  if (verb === "Get" && what === undefined) return get(state, kindName, entry);
  if (verb === "ListAttached" && what === "Policies") {
    return { AttachedPolicies: entry.AttachedManagedPolicies ?? [], IsTruncated: false };
  }
  if (verb === "List" && what === "Policies") {
    return { PolicyNames: inline.map((policy) => policy.PolicyName), IsTruncated: false };
  }
  if (verb === "List" && what === "Tags") return { Tags: entry.Tags ?? [], IsTruncated: false };
  if (verb === "Get" && what === "Policy") {
    const policyName = params.get("PolicyName") ?? "";
    const policy = inline.find((candidate) => candidate.PolicyName === policyName);
    if (!policy) {
      throw new FakeAwsError(
        "NoSuchEntity",
        `The ${kindName.toLowerCase()} policy with name ${policyName} cannot be found.`,
        404,
      );
    }
    return encodeDocuments({ [`${kindName}Name`]: name, ...policy }) as object;
  }
  return undefined;
}

function get(state: FakeState, kind: PrincipalKind, entry: GaadEntry): object {
  const summary = principalSummary(kind, entry);
  if (kind === "Role") return { Role: summary };
  if (kind === "User") {
    const lastUsed = meaningful(credentialRow(state, String(entry.Arn))?.password_last_used);
    return { User: { ...summary, ...(lastUsed ? { PasswordLastUsed: lastUsed } : {}) } };
  }
  const users = (state.model.authorizationDetails?.UserDetailList ?? []).filter((user) =>
    ((user.GroupList ?? []) as string[]).includes(String(entry.GroupName)),
  );
  return {
    Group: summary,
    Users: users.map((user) => principalSummary("User", user)),
    IsTruncated: false,
  };
}

function groupsForUser(state: FakeState, params: URLSearchParams): object {
  const user = findPrincipal(state, "User", params.get("UserName") ?? "");
  const groups = state.model.authorizationDetails?.GroupDetailList ?? [];
  const names = (user.GroupList ?? []) as string[];
  const found = names
    .map((name) => groups.find((group) => group.GroupName === name))
    .filter((group) => group !== undefined);
  return { Groups: found.map((group) => principalSummary("Group", group)), IsTruncated: false };
}
