import type { Issue } from "../issues.ts";
import type { Policy } from "../policy/policy-types.ts";

export interface IamUser {
  kind: "user";
  arn: string;
  name: string;
  id: string;
  path: string;
  accountId: string;
  groupNames: readonly string[];
  inlinePolicies: readonly Policy[];
  managedPolicyArns: readonly string[];
  permissionsBoundaryArn?: string;
  tags: Readonly<Record<string, string>>;
}

export interface IamRole {
  kind: "role";
  arn: string;
  name: string;
  id: string;
  path: string;
  accountId: string;
  trustPolicy: Policy;
  inlinePolicies: readonly Policy[];
  managedPolicyArns: readonly string[];
  permissionsBoundaryArn?: string;
  tags: Readonly<Record<string, string>>;
}

export interface IamGroup {
  arn: string;
  name: string;
  id: string;
  inlinePolicies: readonly Policy[];
  managedPolicyArns: readonly string[];
}

/** `aws iam get-account-authorization-details`, parsed. Managed policies hold their default version. */
export interface AuthorizationDetails {
  accountId: string | undefined;
  users: readonly IamUser[];
  groups: readonly IamGroup[];
  roles: readonly IamRole[];
  managedPolicies: ReadonlyMap<string, Policy>;
}

export interface ParseResult<T> {
  value: T;
  issues: Issue[];
}
