import type { AccountSnapshot, OrganizationInput } from "../../src/index.ts";

/** Small builders of `get-account-authorization-details` snapshots for path tests. */

type Json = Record<string, unknown>;

export const doc = (...statements: Json[]) => ({ Version: "2012-10-17", Statement: statements });

export const roleArn = (account: string, name: string) => `arn:aws:iam::${account}:role/${name}`;
export const userArn = (account: string, name: string) => `arn:aws:iam::${account}:user/${name}`;

/** Trust admitting `principals` (ARNs or account IDs) to sts:AssumeRole, with an optional Condition. */
export const trust = (principals: string | string[], condition?: Json) =>
  doc({
    Effect: "Allow",
    Principal: { AWS: principals },
    Action: "sts:AssumeRole",
    ...(condition && { Condition: condition }),
  });

export const allowAssume = (resource: string | string[] = "*") => ({
  Effect: "Allow",
  Action: "sts:AssumeRole",
  Resource: resource,
});

export const denyAssume = (resource: string | string[] = "*") => ({
  Effect: "Deny",
  Action: "sts:AssumeRole",
  Resource: resource,
});

export interface RoleSpec {
  name: string;
  trust: Json;
  statements?: Json[];
  boundaryArn?: string;
  tags?: Record<string, string>;
}

export interface UserSpec {
  name: string;
  statements?: Json[];
  boundaryArn?: string;
}

export interface AccountSpec {
  id: string;
  roles?: RoleSpec[];
  users?: UserSpec[];
  /** Managed policies by ARN (boundaries). */
  policies?: Record<string, Json>;
  organization?: OrganizationInput;
  resourcePolicies?: Record<string, unknown>;
}

const inline = (statements: Json[] | undefined) =>
  statements && statements.length > 0
    ? [{ PolicyName: "inline", PolicyDocument: doc(...statements) }]
    : [];

const boundary = (arn: string | undefined) =>
  arn
    ? { PermissionsBoundary: { PermissionsBoundaryType: "Policy", PermissionsBoundaryArn: arn } }
    : {};

export function snapshot(spec: AccountSpec): AccountSnapshot {
  return {
    accountId: spec.id,
    authorizationDetails: {
      UserDetailList: (spec.users ?? []).map((u) => ({
        Path: "/",
        UserName: u.name,
        UserId: `AIDA${spec.id}${u.name}`,
        Arn: userArn(spec.id, u.name),
        GroupList: [],
        UserPolicyList: inline(u.statements),
        AttachedManagedPolicies: [],
        Tags: [],
        ...boundary(u.boundaryArn),
      })),
      GroupDetailList: [],
      RoleDetailList: (spec.roles ?? []).map((r) => ({
        Path: "/",
        RoleName: r.name,
        RoleId: `AROA${spec.id}${r.name}`,
        Arn: roleArn(spec.id, r.name),
        AssumeRolePolicyDocument: r.trust,
        RolePolicyList: inline(r.statements),
        AttachedManagedPolicies: [],
        Tags: Object.entries(r.tags ?? {}).map(([Key, Value]) => ({ Key, Value })),
        ...boundary(r.boundaryArn),
      })),
      Policies: Object.entries(spec.policies ?? {}).map(([arn, document]) => ({
        Arn: arn,
        PolicyName: arn.split("/").pop(),
        DefaultVersionId: "v1",
        PolicyVersionList: [{ VersionId: "v1", IsDefaultVersion: true, Document: document }],
      })),
    },
    ...(spec.organization && { organization: spec.organization }),
    ...(spec.resourcePolicies && { resourcePolicies: spec.resourcePolicies }),
  };
}
