/**
 * Every IAM action collection calls, and nothing else (the full collection's and the
 * incremental one's: `GetUser`, `ListAttachedRolePolicies`, `GetLoginProfile`, …): the auditor role's policy in
 * `deploy/aws/auditor-role.yaml` and `deploy/terraform/auditor-role` lists exactly these
 * (a test checks both). `sts:GetCallerIdentity` needs no permission; it is listed because it
 * is called.
 */
export const COLLECTOR_ACTIONS = [
  "ec2:DescribeRegions",
  "iam:GenerateCredentialReport",
  "iam:GetAccessKeyLastUsed",
  "iam:GetAccountAuthorizationDetails",
  "iam:GetCredentialReport",
  "iam:GetGroup",
  "iam:GetGroupPolicy",
  "iam:GetLoginProfile",
  "iam:GetPolicy",
  "iam:GetPolicyVersion",
  "iam:GetRole",
  "iam:GetRolePolicy",
  "iam:GetUser",
  "iam:GetUserPolicy",
  "iam:ListAccessKeys",
  "iam:ListAttachedGroupPolicies",
  "iam:ListAttachedRolePolicies",
  "iam:ListAttachedUserPolicies",
  "iam:ListGroupPolicies",
  "iam:ListGroupsForUser",
  "iam:ListPolicyVersions",
  "iam:ListRolePolicies",
  "iam:ListUserPolicies",
  "kms:DescribeKey",
  "kms:GetKeyPolicy",
  "kms:ListAliases",
  "kms:ListKeys",
  "kms:ListResourceTags",
  "organizations:DescribeOrganization",
  "organizations:DescribePolicy",
  "organizations:ListParents",
  "organizations:ListPoliciesForTarget",
  "organizations:ListRoots",
  "s3:GetBucketLocation",
  "s3:GetBucketPolicy",
  "s3:GetBucketTagging",
  "s3:ListAllMyBuckets",
  "sts:GetCallerIdentity",
] as const;

export type CollectorAction = (typeof COLLECTOR_ACTIONS)[number];
