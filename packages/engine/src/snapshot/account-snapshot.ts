import type { Partition } from "../arn/partitions.ts";

/** A policy document as supplied by the caller: decoded, JSON text or URL-encoded text. */
export interface PolicyInput {
  id?: string;
  name?: string;
  document: unknown;
}

/** Organization policies of one level of the account's path (root, an OU, the account). */
export interface OrganizationLevelInput {
  /** e.g. `r-abcd`, `ou-abcd-12345678`, or the account ID. */
  target: string;
  policies: readonly PolicyInput[];
}

export interface OrganizationInput {
  organizationId?: string;
  isManagementAccount?: boolean;
  /** Root first, account last. A level listed with no policy denies everything, as in AWS. */
  serviceControlPolicies?: readonly OrganizationLevelInput[];
  resourceControlPolicies?: readonly OrganizationLevelInput[];
}

/** Raw inputs for one account, as read from disk or an API by the caller. */
export interface AccountSnapshot {
  /** `aws iam get-account-authorization-details` output (object or JSON text). */
  authorizationDetails: unknown;
  /** Defaults to the account in the principals' ARNs. */
  accountId?: string;
  /** Defaults to the partition in the principals' ARNs, else `aws`. */
  partition?: Partition;
  /** Resource-based policies keyed by resource ARN (an S3 bucket may be given by name). */
  resourcePolicies?: Readonly<Record<string, unknown>>;
  /**
   * The S3 buckets the account owns (names or ARNs), e.g. from `ListBuckets`. An S3 ARN names
   * no account: without this list, a bucket without a policy here has an unknown owner, and a
   * request on it is conditional on who owns it.
   */
  buckets?: readonly string[];
  /**
   * The account's AWS managed KMS keys (key ARNs; `KeyManager` `AWS` in `DescribeKey`). A key
   * ARN does not say who manages the key: AWS refuses customers' changes to these
   * (`aws-protected-resources.ts`), whatever the policies allow.
   */
  awsManagedKeys?: readonly string[];
  /**
   * The account's KMS keys whose key policy could not be read (key ARNs; `kms:GetKeyPolicy`
   * refused or failed). Without a policy in `resourcePolicies`, a key ARN is taken to have the
   * default key policy, which lets IAM policies in its account allow (AWS KMS Developer Guide,
   * 'Default key policy'). An auditor can normally read that policy, so a refusal suggests one
   * that does not simply delegate to IAM: for a key listed here the engine assumes nothing,
   * and whether its key policy allows a caller is an undecided condition (`KeyPolicyUnread`).
   * A key whose policy `resourcePolicies` gives is decided by that policy (with a warning).
   */
  unreadableKeyPolicies?: readonly string[];
  organization?: OrganizationInput;
}
