import type { Partition } from "../arn/partitions.ts";
import type { Issue } from "../issues.ts";
import type { Policy } from "../policy/policy-types.ts";
import type { IamGroup, IamRole, IamUser } from "./snapshot-types.ts";

/** A user or role with every policy that applies to it resolved. */
export interface PrincipalRecord {
  kind: "user" | "role";
  arn: string;
  name: string;
  id: string;
  path: string;
  accountId: string;
  partition: Partition;
  tags: Readonly<Record<string, string>>;
  /** Inline and managed policies of the principal and, for users, of its groups. */
  identityPolicies: readonly Policy[];
  permissionsBoundary?: Policy;
  /** Group ARNs (users only). */
  groupArns: readonly string[];
  /** Roles under `/aws-service-role/`: SCPs and RCPs do not restrict them. */
  serviceLinked: boolean;
  source: IamUser | IamRole;
}

/** A resource-based policy attached to one resource. */
export interface ResourcePolicyRecord {
  resourceArn: string;
  accountId: string | undefined;
  policy: Policy;
}

/** One analysed account: its principals and its place in the organization. */
export interface AccountData {
  accountId: string;
  partition: Partition;
  isManagementAccount: boolean;
  organizationId: string | undefined;
  /** SCPs per level of the account's path, root first; empty when the account is not in an organization. */
  serviceControlPolicies: readonly (readonly Policy[])[];
  resourceControlPolicies: readonly (readonly Policy[])[];
  users: readonly PrincipalRecord[];
  roles: readonly PrincipalRecord[];
  groups: readonly IamGroup[];
  managedPolicies: ReadonlyMap<string, Policy>;
}

/** Everything `authorize` and `analyzeAccount` need about one or several accounts. */
export interface AccountModel {
  accounts: ReadonlyMap<string, AccountData>;
  principals: ReadonlyMap<string, PrincipalRecord>;
  /** Keyed by resource ARN; role trust policies are included under the role ARN. */
  resourcePolicies: ReadonlyMap<string, ResourcePolicyRecord>;
  /** S3 bucket ARN → owning account, from the snapshots' bucket lists and bucket policies. */
  bucketOwners: ReadonlyMap<string, string>;
  /** Key ARNs of the AWS managed KMS keys the snapshots list (`awsManagedKeys`). */
  awsManagedKeys: ReadonlySet<string>;
  /**
   * Key ARNs whose key policy could not be read (`unreadableKeyPolicies`) and that no
   * `resourcePolicies` entry gives: their key policy is unknown, not the default one.
   */
  unreadableKeyPolicies: ReadonlySet<string>;
  issues: readonly Issue[];
}
