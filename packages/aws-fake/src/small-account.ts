import type { FakeAccountModel, GaadEntry } from "./fake-model.ts";

export const ACCOUNT_ID = "210987654321";
export const AUDITOR_ROLE_ARN = `arn:aws:iam::${ACCOUNT_ID}:role/SightlineAuditor`;
export const EXTERNAL_ID = "acme-7f3e";
export const KEY_ID = "1234abcd-12ab-34cd-56ef-1234567890ab";
export const KEY_ARN = `arn:aws:kms:us-east-1:${ACCOUNT_ID}:key/${KEY_ID}`;
export const INBOX_KEY_ID = "9999abcd-12ab-34cd-56ef-1234567890ab";
export const INBOX_KEY_ARN = `arn:aws:kms:us-east-1:${ACCOUNT_ID}:key/${INBOX_KEY_ID}`;
/** A bucket of the model that stands for a partner's secure inbox, and its key. */
export const INBOX_BUCKET = "partner-inbox";

const allow = (action: string, resource: string) => ({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: action, Resource: resource }],
});
const awsManaged = (name: string, document: object): GaadEntry => ({
  PolicyName: name,
  Arn: `arn:aws:iam::aws:policy/${name}`,
  Path: "/",
  DefaultVersionId: "v1",
  AttachmentCount: 1,
  PolicyVersionList: [{ Document: document, VersionId: "v1", IsDefaultVersion: true }],
});
const trust = (principal: object) => ({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: principal, Action: "sts:AssumeRole" }],
});

/**
 * A small account for tests of collection and of the whole pipeline: two users, a group, two
 * roles, three managed policies, two buckets (and an inbox bucket), three keys, an OU.
 */
export const model: FakeAccountModel = {
  accountId: ACCOUNT_ID,
  assumableRoles: [{ roleArn: AUDITOR_ROLE_ARN, externalId: EXTERNAL_ID }],
  gaadPageSize: 2,
  regions: ["eu-west-1", "us-east-1"],
  authorizationDetails: {
    UserDetailList: [
      {
        UserName: "alice",
        UserId: "AIDAALICE",
        Arn: `arn:aws:iam::${ACCOUNT_ID}:user/alice`,
        Path: "/",
        CreateDate: "2024-01-01T00:00:00Z",
        GroupList: ["developers"],
        UserPolicyList: [
          {
            PolicyName: "read-reports",
            PolicyDocument: allow("s3:GetObject", "arn:aws:s3:::reports/*"),
          },
        ],
        AttachedManagedPolicies: [
          { PolicyName: "ReadOnlyAccess", PolicyArn: "arn:aws:iam::aws:policy/ReadOnlyAccess" },
        ],
        Tags: [{ Key: "team", Value: "data" }],
      },
      {
        UserName: "bob",
        UserId: "AIDABOB",
        Arn: `arn:aws:iam::${ACCOUNT_ID}:user/bob`,
        Path: "/",
        CreateDate: "2024-01-01T00:00:00Z",
        GroupList: [],
        UserPolicyList: [],
        AttachedManagedPolicies: [],
        Tags: [],
      },
    ],
    GroupDetailList: [
      {
        GroupName: "developers",
        GroupId: "AGPADEV",
        Arn: `arn:aws:iam::${ACCOUNT_ID}:group/developers`,
        Path: "/",
        GroupPolicyList: [],
        AttachedManagedPolicies: [
          { PolicyName: "deploy", PolicyArn: `arn:aws:iam::${ACCOUNT_ID}:policy/deploy` },
        ],
      },
    ],
    RoleDetailList: [
      {
        RoleName: "SightlineAuditor",
        RoleId: "AROAAUDITOR",
        Arn: AUDITOR_ROLE_ARN,
        Path: "/",
        AssumeRolePolicyDocument: trust({ AWS: "arn:aws:iam::999999999999:root" }),
        RolePolicyList: [],
        AttachedManagedPolicies: [],
        Tags: [],
      },
      {
        RoleName: "Deployer",
        RoleId: "AROADEPLOYER",
        Arn: `arn:aws:iam::${ACCOUNT_ID}:role/Deployer`,
        Path: "/",
        AssumeRolePolicyDocument: trust({ Service: "ec2.amazonaws.com" }),
        RolePolicyList: [],
        AttachedManagedPolicies: [
          {
            PolicyName: "AdministratorAccess",
            PolicyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
          },
        ],
        Tags: [{ Key: "environment", Value: "prod" }],
        RoleLastUsed: { LastUsedDate: "2024-05-01T12:00:00Z", Region: "eu-west-1" },
      },
    ],
    Policies: [
      {
        PolicyName: "deploy",
        Arn: `arn:aws:iam::${ACCOUNT_ID}:policy/deploy`,
        Path: "/",
        DefaultVersionId: "v2",
        AttachmentCount: 1,
        PolicyVersionList: [
          { Document: allow("*", "*"), VersionId: "v1", IsDefaultVersion: false },
          {
            Document: allow("lambda:UpdateFunctionCode", "*"),
            VersionId: "v2",
            IsDefaultVersion: true,
          },
        ],
      },
      awsManaged("ReadOnlyAccess", allow("s3:List*", "*")),
      awsManaged("AdministratorAccess", allow("*", "*")),
    ],
  },
  buckets: [
    {
      name: "reports",
      region: "eu-west-1",
      policy: {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: "arn:aws:iam::111122223333:root" },
            Action: "s3:GetObject",
            Resource: "arn:aws:s3:::reports/*",
          },
        ],
      },
      tags: { confidentiality: "high", owner: "data" },
    },
    { name: "logs" },
    { name: "partner-inbox" },
  ],
  keys: [
    {
      keyId: KEY_ID,
      policy: {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: `arn:aws:iam::${ACCOUNT_ID}:root` },
            Action: "kms:*",
            Resource: "*",
          },
        ],
      },
      aliases: ["alias/reports"],
      tags: { environment: "prod" },
    },
    { keyId: INBOX_KEY_ID, aliases: ["alias/inbox"] },
    { keyId: "aaaa0000-0000-0000-0000-000000000001", manager: "AWS", aliases: ["alias/aws/s3"] },
    { keyId: "aaaa0000-0000-0000-0000-000000000002", state: "PendingDeletion" },
  ],
  organization: {
    id: "o-abc123",
    managementAccountId: "111111111111",
    rootId: "r-root",
    delegatedAdministrator: true,
    parents: { [ACCOUNT_ID]: "ou-root-prod", "ou-root-prod": "r-root" },
    policies: [
      {
        id: "p-FullAWSAccess",
        name: "FullAWSAccess",
        type: "SERVICE_CONTROL_POLICY",
        document: allow("*", "*"),
        targets: ["r-root", "ou-root-prod", ACCOUNT_ID],
      },
      {
        id: "p-guardrails",
        name: "guardrails",
        type: "SERVICE_CONTROL_POLICY",
        document: {
          Version: "2012-10-17",
          Statement: [{ Effect: "Deny", Action: "organizations:LeaveOrganization", Resource: "*" }],
        },
        targets: ["ou-root-prod"],
      },
      {
        id: "p-RCPFullAWSAccess",
        name: "RCPFullAWSAccess",
        type: "RESOURCE_CONTROL_POLICY",
        document: {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Principal: "*", Action: "*", Resource: "*" }],
        },
        targets: ["r-root", "ou-root-prod", ACCOUNT_ID],
      },
    ],
  },
};

/**
 * The authorization details of `model` with AWS's AdministratorAccess attached to one of its
 * users, as an administrator would change the account between two analyses; undefined when the
 * model has no such user.
 */
export function withAdministratorAccess(
  model: FakeAccountModel,
  userName: string,
): FakeAccountModel["authorizationDetails"] | undefined {
  const details = model.authorizationDetails;
  if (!details?.UserDetailList?.some((u) => u.UserName === userName)) return undefined;
  return {
    ...details,
    UserDetailList: (details.UserDetailList ?? []).map((u) =>
      u.UserName === userName
        ? {
            ...u,
            AttachedManagedPolicies: [
              ...((u.AttachedManagedPolicies as object[] | undefined) ?? []),
              {
                PolicyName: "AdministratorAccess",
                PolicyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
              },
            ],
          }
        : u,
    ),
  };
}
