import { accountOfArn, parseArn } from "../arn/parse-arn.ts";
import { type Issue, issueAt } from "../issues.ts";
import { parsePolicyDocument } from "../policy/parse-policy-document.ts";
import { parseManagedPolicies } from "./parse-managed-policies.ts";
import {
  readAttachedPolicyArns,
  readBoundaryArn,
  readInlinePolicies,
} from "./parse-principal-entries.ts";
import { arrayField, isObject, optionalString, readTags, requireString } from "./read-fields.ts";
import type {
  AuthorizationDetails,
  IamGroup,
  IamRole,
  IamUser,
  ParseResult,
} from "./snapshot-types.ts";

/**
 * Parses `aws iam get-account-authorization-details` output (object or JSON text). Unknown
 * fields are ignored; broken entries are skipped with an issue; attached policies absent
 * from `Policies` are reported (the CLI lists AWS managed ones only when asked).
 */
export function parseAuthorizationDetails(raw: unknown): ParseResult<AuthorizationDetails> {
  const issues: Issue[] = [];
  let input = raw;
  if (typeof raw === "string") {
    try {
      input = JSON.parse(raw);
    } catch (error) {
      issues.push(issueAt("$", `not valid JSON: ${(error as Error).message}`));
      input = {};
    }
  }
  if (!isObject(input)) {
    issues.push(issueAt("$", "authorization details must be a JSON object"));
    input = {};
  }
  const root = input as Record<string, unknown>;
  const managedPolicies = parseManagedPolicies(arrayField(root, "Policies", "$", issues), issues);
  const users = arrayField(root, "UserDetailList", "$", issues).flatMap((e, i) =>
    parseUser(e, `UserDetailList[${i}]`, issues),
  );
  const groups = arrayField(root, "GroupDetailList", "$", issues).flatMap((e, i) =>
    parseGroup(e, `GroupDetailList[${i}]`, issues),
  );
  const roles = arrayField(root, "RoleDetailList", "$", issues).flatMap((e, i) =>
    parseRole(e, `RoleDetailList[${i}]`, issues),
  );
  reportMissingPolicies([...users, ...groups, ...roles], managedPolicies, issues);
  reportMissingGroups(users, groups, issues);
  const accounts = new Set([...users, ...roles].map((p) => p.accountId));
  if (accounts.size > 1)
    issues.push(
      issueAt("$", `principals span several accounts: ${[...accounts].join(", ")}`, "warning"),
    );
  const accountId = [...accounts][0] ?? groups.map((g) => accountOfArn(g.arn)).find(Boolean);
  return { value: { accountId, users, groups, roles, managedPolicies }, issues };
}

function parseUser(entry: unknown, path: string, issues: Issue[]): IamUser[] {
  if (!isObject(entry)) {
    issues.push(issueAt(path, "must be an object"));
    return [];
  }
  const arn = requireString(entry, "Arn", path, issues);
  const name = requireString(entry, "UserName", path, issues);
  const accountId = arn ? accountOfArn(arn) : undefined;
  if (arn && !accountId) issues.push(issueAt(`${path}.Arn`, "has no 12-digit account ID"));
  if (!arn || !name || !accountId) return [];
  const groupNames = arrayField(entry, "GroupList", path, issues).filter(
    (g): g is string => typeof g === "string",
  );
  const boundary = readBoundaryArn(entry);
  return [
    {
      kind: "user",
      arn,
      name,
      id: optionalString(entry, "UserId") ?? name,
      path: optionalString(entry, "Path") ?? "/",
      accountId,
      groupNames,
      inlinePolicies: readInlinePolicies(entry, "UserPolicyList", arn, path, issues),
      managedPolicyArns: readAttachedPolicyArns(entry, path, issues),
      ...(boundary && { permissionsBoundaryArn: boundary }),
      tags: readTags(entry, path, issues),
    },
  ];
}

function parseGroup(entry: unknown, path: string, issues: Issue[]): IamGroup[] {
  if (!isObject(entry)) {
    issues.push(issueAt(path, "must be an object"));
    return [];
  }
  const arn = requireString(entry, "Arn", path, issues);
  const name = requireString(entry, "GroupName", path, issues);
  if (!arn || !name) return [];
  return [
    {
      arn,
      name,
      id: optionalString(entry, "GroupId") ?? name,
      inlinePolicies: readInlinePolicies(entry, "GroupPolicyList", arn, path, issues),
      managedPolicyArns: readAttachedPolicyArns(entry, path, issues),
    },
  ];
}

function parseRole(entry: unknown, path: string, issues: Issue[]): IamRole[] {
  if (!isObject(entry)) {
    issues.push(issueAt(path, "must be an object"));
    return [];
  }
  const arn = requireString(entry, "Arn", path, issues);
  const name = requireString(entry, "RoleName", path, issues);
  const accountId = arn ? accountOfArn(arn) : undefined;
  if (arn && !accountId) issues.push(issueAt(`${path}.Arn`, "has no 12-digit account ID"));
  if (!arn || !name || !accountId) return [];
  const trust = parsePolicyDocument(
    entry.AssumeRolePolicyDocument,
    `${path}.AssumeRolePolicyDocument`,
  );
  issues.push(...trust.issues);
  const boundary = readBoundaryArn(entry);
  return [
    {
      kind: "role",
      arn,
      name,
      id: optionalString(entry, "RoleId") ?? name,
      path: optionalString(entry, "Path") ?? "/",
      accountId,
      trustPolicy: {
        id: `${arn}#trust`,
        name: `${name} trust policy`,
        type: "role-trust",
        statements: trust.statements,
      },
      inlinePolicies: readInlinePolicies(entry, "RolePolicyList", arn, path, issues),
      managedPolicyArns: readAttachedPolicyArns(entry, path, issues),
      ...(boundary && { permissionsBoundaryArn: boundary }),
      tags: readTags(entry, path, issues),
    },
  ];
}

function reportMissingPolicies(
  owners: readonly (IamUser | IamGroup | IamRole)[],
  managed: ReadonlyMap<string, unknown>,
  issues: Issue[],
): void {
  const missing = new Map<string, string>();
  for (const owner of owners) {
    const arns = [...owner.managedPolicyArns];
    if ("permissionsBoundaryArn" in owner && owner.permissionsBoundaryArn)
      arns.push(owner.permissionsBoundaryArn);
    for (const arn of arns) if (!managed.has(arn) && !missing.has(arn)) missing.set(arn, owner.arn);
  }
  for (const [arn, owner] of missing) {
    const awsManaged = parseArn(arn)?.accountId === "aws";
    issues.push(
      issueAt(
        "Policies",
        `${awsManaged ? "AWS managed" : "customer managed"} policy ${arn} (attached to ${owner}) is not in Policies; it is treated as granting nothing${awsManaged ? " (export with --filter AWSManagedPolicy to include it)" : ""}`,
        "warning",
      ),
    );
  }
}

function reportMissingGroups(
  users: readonly IamUser[],
  groups: readonly IamGroup[],
  issues: Issue[],
): void {
  const names = new Set(groups.map((g) => g.name));
  users.forEach((user, index) => {
    for (const g of user.groupNames) {
      if (!names.has(g))
        issues.push(
          issueAt(
            `UserDetailList[${index}].GroupList`,
            `group ${g} is not in GroupDetailList`,
            "warning",
          ),
        );
    }
  });
}
