import type { AccountSnapshot } from "../src/index.ts";
import { ACCOUNT } from "./generate-account.ts";

/**
 * Random changes of a generated account, as the events of an IAM or policy change name them:
 * for the property tests of event steps (the engine's scope, the services' stored results).
 */

/** A small account of the generator's kind: its analyses take milliseconds. */
export const TINY = {
  name: "tiny",
  users: 10,
  roles: 8,
  managedPolicies: 8,
  groups: 3,
  buckets: 3,
  bucketsWithoutPolicy: 2,
  keys: 2,
};

type Json = Record<string, unknown>;
export const arnOf = (kind: string, name: string) => `arn:aws:iam::${ACCOUNT}:${kind}/${name}`;
const bucketArn = (i: number) => `arn:aws:s3:::data-${i}`;
const doc = (Statement: Json[]) => ({ Version: "2012-10-17", Statement });

const ACTIONS = [
  "s3:GetObject",
  "s3:*",
  "s3:PutBucketPolicy",
  "iam:*",
  "iam:PassRole",
  "kms:Decrypt",
  "sts:AssumeRole",
  "*",
];

/** A statement built from small numbers, so that fast-check can shrink it. */
function statement(n: readonly number[], forResource: boolean): Json {
  const [a = 0, r = 0, e = 0, p = 0] = n;
  const resources = [
    "*",
    bucketArn(r % 3),
    `${bucketArn(r % 3)}/*`,
    arnOf("role", `role-${r % 8}`),
    `arn:aws:kms:us-east-1:${ACCOUNT}:key/key-${r % 2}`,
  ];
  const s: Json = {
    Effect: e % 4 === 0 ? "Deny" : "Allow",
    Action: ACTIONS[a % ACTIONS.length],
    Resource: resources[r % resources.length],
  };
  if (forResource) {
    const principals = [
      arnOf("user", `user-${p % 10}`),
      arnOf("role", `role-${p % 8}`),
      `arn:aws:iam::${ACCOUNT}:root`,
      "*",
      "arn:aws:iam::210987654321:root",
    ];
    s.Principal = p % 5 === 3 ? "*" : { AWS: principals[p % principals.length] };
  }
  return s;
}

export type Details = {
  UserDetailList: Json[];
  RoleDetailList: Json[];
  GroupDetailList: Json[];
  Policies: Json[];
};

/** The changes an event can name, as edits of the snapshot. */
export const MUTATIONS: Record<
  string,
  (s: AccountSnapshot, d: Details, n: readonly number[]) => void
> = {
  userInline(_s, d, n) {
    const user = d.UserDetailList[(n[4] ?? 0) % d.UserDetailList.length] as Json;
    user.UserPolicyList = [{ PolicyName: "inline", PolicyDocument: doc([statement(n, false)]) }];
  },
  roleInline(_s, d, n) {
    const role = d.RoleDetailList[(n[4] ?? 0) % d.RoleDetailList.length] as Json;
    role.RolePolicyList = [{ PolicyName: "inline", PolicyDocument: doc([statement(n, false)]) }];
  },
  attach(_s, d, n) {
    const list = (n[5] ?? 0) % 2 ? d.UserDetailList : d.RoleDetailList;
    const who = list[(n[4] ?? 0) % list.length] as Json;
    const policy = d.Policies[(n[0] ?? 0) % d.Policies.length] as Json;
    who.AttachedManagedPolicies = [
      ...((who.AttachedManagedPolicies as Json[]) ?? []),
      { PolicyArn: policy.Arn, PolicyName: policy.PolicyName },
    ];
  },
  managedVersion(_s, d, n) {
    const policy = d.Policies[(n[4] ?? 0) % d.Policies.length] as Json;
    policy.PolicyVersionList = [
      { VersionId: "v9", IsDefaultVersion: true, Document: doc([statement(n, false)]) },
    ];
    policy.DefaultVersionId = "v9";
  },
  joinGroup(_s, d, n) {
    const user = d.UserDetailList[(n[4] ?? 0) % d.UserDetailList.length] as Json;
    const group = d.GroupDetailList[(n[0] ?? 0) % d.GroupDetailList.length] as Json;
    const list = (user.GroupList as string[]) ?? [];
    user.GroupList = list.includes(group.GroupName as string)
      ? list.filter((g) => g !== group.GroupName)
      : [...list, group.GroupName];
  },
  groupInline(_s, d, n) {
    const group = d.GroupDetailList[(n[4] ?? 0) % d.GroupDetailList.length] as Json;
    group.GroupPolicyList = [{ PolicyName: "inline", PolicyDocument: doc([statement(n, false)]) }];
  },
  trust(_s, d, n) {
    const role = d.RoleDetailList[(n[4] ?? 0) % d.RoleDetailList.length] as Json;
    role.AssumeRolePolicyDocument = doc([
      { ...statement(n, true), Action: "sts:AssumeRole", Resource: undefined },
    ]);
  },
  bucketPolicy(s, _d, n) {
    const arn = bucketArn((n[4] ?? 0) % 3);
    s.resourcePolicies = { ...s.resourcePolicies, [arn]: doc([statement(n, true)]) };
  },
  boundary(_s, d, n) {
    const user = d.UserDetailList[(n[4] ?? 0) % d.UserDetailList.length] as Json;
    if ((n[0] ?? 0) % 2) delete user.PermissionsBoundary;
    else
      user.PermissionsBoundary = {
        PermissionsBoundaryType: "Policy",
        PermissionsBoundaryArn: arnOf("policy", `boundary-${(n[1] ?? 0) % 5}`),
      };
  },
  removeUser(_s, d, n) {
    d.UserDetailList.splice((n[4] ?? 0) % d.UserDetailList.length, 1);
  },
  addUser(_s, d, n) {
    const i = 100 + (n[4] ?? 0);
    d.UserDetailList.push({
      UserName: `user-${i}`,
      UserId: `AIDANEW${i}`,
      Arn: arnOf("user", `user-${i}`),
      GroupList: [(d.GroupDetailList[(n[0] ?? 0) % d.GroupDetailList.length] as Json).GroupName],
      AttachedManagedPolicies: [],
      UserPolicyList: [{ PolicyName: "inline", PolicyDocument: doc([statement(n, false)]) }],
      Tags: [],
    });
  },
  roleTags(_s, d, n) {
    const role = d.RoleDetailList[(n[4] ?? 0) % d.RoleDetailList.length] as Json;
    role.Tags = [{ Key: "team", Value: (n[0] ?? 0) % 2 ? "red" : "blue" }];
  },
};

/** `before` changed by each of `changes` (a mutation's name and its numbers) in turn. */
export function changed(
  before: AccountSnapshot,
  changes: readonly { kind: string; n: readonly number[] }[],
): AccountSnapshot {
  const after = structuredClone(before);
  const details = after.authorizationDetails as Details;
  for (const { kind, n } of changes) MUTATIONS[kind]?.(after, details, n);
  return after;
}
