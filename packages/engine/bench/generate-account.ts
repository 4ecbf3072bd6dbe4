import { listAwsActions } from "@sightline/capabilities";
import type { AccountSnapshot } from "../src/index.ts";
import { Random } from "./random.ts";

export interface AccountSize {
  name: string;
  users: number;
  roles: number;
  managedPolicies: number;
  groups: number;
  buckets: number;
  /** Buckets the account lists without a bucket policy: reached through identity policies alone. */
  bucketsWithoutPolicy: number;
  keys: number;
}

export const SIZES: Record<"small" | "medium" | "large", AccountSize> = {
  small: {
    name: "small",
    users: 60,
    roles: 40,
    managedPolicies: 30,
    groups: 5,
    buckets: 5,
    bucketsWithoutPolicy: 5,
    keys: 2,
  },
  medium: {
    name: "medium",
    users: 600,
    roles: 400,
    managedPolicies: 300,
    groups: 30,
    buckets: 30,
    bucketsWithoutPolicy: 30,
    keys: 10,
  },
  large: {
    name: "large",
    users: 6000,
    roles: 4000,
    managedPolicies: 3000,
    groups: 200,
    buckets: 300,
    bucketsWithoutPolicy: 300,
    keys: 100,
  },
};

export const ACCOUNT = "123456789012";
const EXTERNAL = ["210987654321", "345678901234"];
const PREFIXES = [
  "s3",
  "ec2",
  "iam",
  "kms",
  "dynamodb",
  "lambda",
  "sqs",
  "sns",
  "logs",
  "cloudwatch",
  "sts",
  "rds",
  "ssm",
  "secretsmanager",
  "ecr",
  "ecs",
  "cloudformation",
  "route53",
  "elasticloadbalancing",
  "autoscaling",
];
const VERBS = ["Get*", "List*", "Describe*", "Put*", "Create*", "Delete*", "Update*", "*"];
const CONDITIONS = [
  { Bool: { "aws:MultiFactorAuthPresent": "true" } },
  { IpAddress: { "aws:SourceIp": "203.0.113.0/24" } },
  { StringEquals: { "aws:RequestedRegion": ["eu-west-1", "eu-central-1"] } },
  { StringEquals: { "aws:PrincipalAccount": ACCOUNT } },
  { StringEquals: { "aws:PrincipalTag/team": "red" } },
];

type Json = Record<string, unknown>;
const doc = (Statement: Json[]) => ({ Version: "2012-10-17", Statement });

/** A seeded, reproducible synthetic account: wildcard-heavy policies, groups, boundaries, resource policies, SCPs. */
export function generateAccount(size: AccountSize, seed = 42): AccountSnapshot {
  const rnd = new Random(seed);
  const actionsByPrefix = new Map<string, string[]>();
  for (const a of listAwsActions())
    if (PREFIXES.includes(a.prefix))
      actionsByPrefix.set(a.prefix, [...(actionsByPrefix.get(a.prefix) ?? []), a.action]);
  const bucketNames = Array.from({ length: size.buckets }, (_, i) => `data-${i}`);
  const keyIds = Array.from({ length: size.keys }, (_, i) => `key-${i}`);
  const roleNames = Array.from({ length: size.roles }, (_, i) => `role-${i}`);

  const resourceFor = (prefix: string): string => {
    if (rnd.chance(0.6)) return "*";
    if (prefix === "s3")
      return rnd.chance(0.5)
        ? `arn:aws:s3:::${rnd.pick(bucketNames)}/*`
        : `arn:aws:s3:::${rnd.pick(bucketNames)}`;
    if (prefix === "kms") return `arn:aws:kms:us-east-1:${ACCOUNT}:key/${rnd.pick(keyIds)}`;
    if (prefix === "sts" || prefix === "iam")
      return `arn:aws:iam::${ACCOUNT}:role/${rnd.pick(roleNames)}`;
    if (prefix === "dynamodb")
      return `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/table-${rnd.int(50)}`;
    return `arn:aws:${prefix}:*:${ACCOUNT}:*`;
  };
  const statement = (effect: "Allow" | "Deny"): Json => {
    const prefix = rnd.pick(PREFIXES);
    const actions = Array.from({ length: 1 + rnd.int(4) }, () =>
      rnd.chance(0.5)
        ? `${prefix}:${rnd.pick(VERBS)}`
        : rnd.pick(actionsByPrefix.get(prefix) ?? [`${prefix}:*`]),
    );
    const s: Json = {
      Effect: effect,
      Action: [...new Set(actions)],
      Resource: resourceFor(prefix),
    };
    if (rnd.chance(0.15)) s.Condition = rnd.pick(CONDITIONS);
    return s;
  };
  const policyDoc = (): Json => {
    const statements = Array.from({ length: 1 + rnd.int(4) }, () =>
      statement(rnd.chance(0.12) ? "Deny" : "Allow"),
    );
    if (rnd.chance(0.03)) statements.push({ Effect: "Allow", Action: "*", Resource: "*" });
    if (rnd.chance(0.03))
      statements.push({ Effect: "Allow", NotAction: ["iam:*", "organizations:*"], Resource: "*" });
    return doc(statements);
  };
  const managed = Array.from({ length: size.managedPolicies }, (_, i) => ({
    PolicyName: `policy-${i}`,
    Arn: `arn:aws:iam::${ACCOUNT}:policy/policy-${i}`,
    DefaultVersionId: "v2",
    PolicyVersionList: [
      {
        VersionId: "v1",
        IsDefaultVersion: false,
        Document: doc([{ Effect: "Allow", Action: "*", Resource: "*" }]),
      },
      { VersionId: "v2", IsDefaultVersion: true, Document: policyDoc() },
    ],
  }));
  const boundaries = Array.from({ length: 5 }, (_, i) => ({
    PolicyName: `boundary-${i}`,
    Arn: `arn:aws:iam::${ACCOUNT}:policy/boundary-${i}`,
    PolicyVersionList: [
      {
        VersionId: "v1",
        IsDefaultVersion: true,
        Document: doc([
          {
            Effect: "Allow",
            Action: PREFIXES.slice(i * 3, i * 3 + 8).map((p) => `${p}:*`),
            Resource: "*",
          },
          { Effect: "Deny", Action: "iam:*", Resource: "*" },
        ]),
      },
    ],
  }));
  const attach = (count: number) => {
    const arns = new Set<string>();
    for (let i = 0; i < count; i++) arns.add(rnd.pickSkewed(managed).Arn);
    return [...arns].map((PolicyArn) => ({ PolicyArn, PolicyName: PolicyArn.split("/")[1] }));
  };
  const boundary = (p: number) =>
    rnd.chance(p)
      ? {
          PermissionsBoundary: {
            PermissionsBoundaryType: "Policy",
            PermissionsBoundaryArn: rnd.pick(boundaries).Arn,
          },
        }
      : {};
  const groups = Array.from({ length: size.groups }, (_, i) => ({
    GroupName: `group-${i}`,
    Arn: `arn:aws:iam::${ACCOUNT}:group/group-${i}`,
    AttachedManagedPolicies: attach(1 + rnd.int(3)),
    GroupPolicyList: rnd.chance(0.3) ? [{ PolicyName: "inline", PolicyDocument: policyDoc() }] : [],
  }));
  const users = Array.from({ length: size.users }, (_, i) => ({
    UserName: `user-${i}`,
    UserId: `AIDAUSER${i}`,
    Arn: `arn:aws:iam::${ACCOUNT}:user/user-${i}`,
    GroupList: Array.from({ length: rnd.int(3) }, () => rnd.pickSkewed(groups).GroupName),
    AttachedManagedPolicies: attach(rnd.int(3)),
    UserPolicyList: rnd.chance(0.1) ? [{ PolicyName: "inline", PolicyDocument: policyDoc() }] : [],
    Tags: rnd.chance(0.3) ? [{ Key: "team", Value: rnd.pick(["red", "blue"]) }] : [],
    ...boundary(0.1),
  }));
  const trust = (i: number): Json => {
    const r = rnd.next();
    if (r < 0.5)
      return doc([
        {
          Effect: "Allow",
          Principal: { Service: rnd.pick(["ec2.amazonaws.com", "lambda.amazonaws.com"]) },
          Action: "sts:AssumeRole",
        },
      ]);
    if (r < 0.75)
      return doc([
        {
          Effect: "Allow",
          Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
          Action: "sts:AssumeRole",
        },
      ]);
    if (r < 0.9)
      return doc([
        {
          Effect: "Allow",
          Principal: { AWS: `arn:aws:iam::${ACCOUNT}:user/user-${rnd.int(size.users)}` },
          Action: "sts:AssumeRole",
        },
      ]);
    return doc([
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${rnd.pick(EXTERNAL)}:root` },
        Action: "sts:AssumeRole",
        Condition: { StringEquals: { "sts:ExternalId": `ext-${i}` } },
      },
    ]);
  };
  const roles = roleNames.map((name, i) => {
    const serviceLinked = rnd.chance(0.03);
    return {
      RoleName: name,
      RoleId: `AROAROLE${i}`,
      Path: serviceLinked ? "/aws-service-role/support.amazonaws.com/" : "/",
      Arn: `arn:aws:iam::${ACCOUNT}:role${serviceLinked ? "/aws-service-role/support.amazonaws.com/" : "/"}${name}`,
      AssumeRolePolicyDocument: trust(i),
      AttachedManagedPolicies: attach(1 + rnd.int(3)),
      RolePolicyList: rnd.chance(0.1)
        ? [{ PolicyName: "inline", PolicyDocument: policyDoc() }]
        : [],
      ...boundary(0.2),
    };
  });
  const resourcePolicies: Record<string, unknown> = {};
  for (const b of bucketNames) {
    const statements: Json[] = [
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${rnd.pick(EXTERNAL)}:root` },
        Action: ["s3:GetObject", "s3:ListBucket"],
        Resource: [`arn:aws:s3:::${b}`, `arn:aws:s3:::${b}/*`],
      },
      {
        Effect: "Deny",
        Principal: "*",
        Action: "s3:*",
        Resource: [`arn:aws:s3:::${b}`, `arn:aws:s3:::${b}/*`],
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      },
    ];
    if (rnd.chance(0.2))
      statements.push({
        Effect: "Allow",
        Principal: "*",
        Action: "s3:GetObject",
        Resource: `arn:aws:s3:::${b}/public/*`,
      });
    if (rnd.chance(0.5))
      statements.push({
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:role/${rnd.pick(roleNames)}` },
        Action: "s3:*",
        Resource: `arn:aws:s3:::${b}/*`,
      });
    resourcePolicies[`arn:aws:s3:::${b}`] = doc(statements);
  }
  for (const k of keyIds) {
    resourcePolicies[`arn:aws:kms:us-east-1:${ACCOUNT}:key/${k}`] = doc([
      {
        Sid: "Enable IAM User Permissions",
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
        Action: "kms:*",
        Resource: "*",
      },
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:role/${rnd.pick(roleNames)}` },
        Action: ["kms:Decrypt", "kms:Encrypt"],
        Resource: "*",
      },
    ]);
  }
  const full = {
    id: "p-FullAWSAccess",
    document: doc([{ Effect: "Allow", Action: "*", Resource: "*" }]),
  };
  return {
    accountId: ACCOUNT,
    authorizationDetails: {
      UserDetailList: users,
      GroupDetailList: groups,
      RoleDetailList: roles,
      Policies: [...managed, ...boundaries],
    },
    resourcePolicies,
    // The account's bucket list (as ListBuckets gives it): every bucket's owner is known. The
    // buckets without a policy come last and draw no random number, so the rest is unchanged.
    buckets: [
      ...bucketNames,
      ...Array.from({ length: size.bucketsWithoutPolicy }, (_, i) => `plain-${i}`),
    ],
    organization: {
      organizationId: "o-synthetic",
      serviceControlPolicies: [
        {
          target: "r-root",
          policies: [
            full,
            {
              id: "p-guardrails",
              document: doc([
                {
                  Effect: "Deny",
                  Action: ["organizations:LeaveOrganization", "cloudtrail:StopLogging"],
                  Resource: "*",
                },
              ]),
            },
          ],
        },
        { target: ACCOUNT, policies: [full] },
      ],
    },
  };
}
