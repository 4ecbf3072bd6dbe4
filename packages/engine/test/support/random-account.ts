import fc from "fast-check";
import { createAccountModel } from "../../src/index.ts";

/** Random small accounts for property tests: a user pair sharing policies, a role, a bucket policy, a bucket without one, a key policy, a boundary and an SCP. */

export const ACCOUNT = "111111111111";
export const USER = `arn:aws:iam::${ACCOUNT}:user/u`;
export const USER2 = `arn:aws:iam::${ACCOUNT}:user/v`;
export const ROLE = `arn:aws:iam::${ACCOUNT}:role/r`;
export const ACTIONS = [
  "s3:GetObject",
  "s3:PutObject",
  "iam:CreateUser",
  "kms:Decrypt",
  "sts:AssumeRole",
  "sts:GetCallerIdentity",
  // Refused on the protected resources below (`aws-protected-resources.ts`).
  "iam:DeletePolicy",
  "iam:PutRolePolicy",
  "kms:DeleteAlias",
  "kms:ScheduleKeyDeletion",
];
export const PATTERNS = [...ACTIONS, "s3:*", "*", "s3:Get*", "iam:*", "k?s:Decrypt"];
export const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/k1`;
/** An AWS managed key (the snapshot lists it): AWS refuses changes to it, whatever its policy says. */
export const AWS_MANAGED_KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/aws-managed-1`;
/** A key whose key policy could not be read (the snapshot lists it): nothing is assumed of it. */
export const UNREAD_KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/unread-1`;
export const RESOURCES = [
  "*",
  "arn:aws:s3:::a/k",
  "arn:aws:s3:::b/k",
  "arn:aws:s3:::a/u/k",
  // No policy and no bucket list: its owner is unknown, same-account access is conditional.
  "arn:aws:s3:::c/k",
  // The account lists this bucket, which has no policy: identity policies alone decide.
  "arn:aws:s3:::d/k",
  ROLE,
  KEY,
  AWS_MANAGED_KEY,
  UNREAD_KEY,
  "arn:aws:iam::aws:policy/AdministratorAccess",
  `arn:aws:iam::${ACCOUNT}:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_A_1`,
  `arn:aws:iam::${ACCOUNT}:role/aws-service-role/ecs.amazonaws.com/AWSServiceRoleForECS`,
  `arn:aws:kms:us-east-1:${ACCOUNT}:alias/aws/s3`,
];
export const RESOURCE_PATTERNS = [
  "*",
  "arn:aws:s3:::a/*",
  "arn:aws:s3:::*",
  "arn:aws:s3:::d/*",
  ROLE,
  "arn:aws:kms:*",
  "arn:aws:iam::*:role/aws-*",
  "arn:aws:s3:::a/$" + "{aws:username}/*",
];

type Json = Record<string, unknown>;
/** The `$` of a policy variable, kept out of template literals. */
const VAR = "$";
const conditionArb = fc.constantFrom<Json | undefined>(
  undefined,
  { StringEquals: { "aws:SourceVpc": "vpc-1" } },
  { Bool: { "aws:SecureTransport": "true" } },
  { StringEquals: { "aws:PrincipalType": "User" } },
  { StringEquals: { "aws:PrincipalTag/team": "red" } },
  // Negated operators over variables that some principals cannot resolve.
  { StringNotEquals: { "aws:PrincipalTag/team": `${VAR}{aws:username}` } },
  {
    ArnNotLike: {
      "aws:PrincipalArn": `arn:aws:iam::${ACCOUNT}:user/${VAR}{aws:PrincipalTag/team}`,
    },
  },
  { StringNotLikeIfExists: { "aws:SourceVpc": `vpc-${VAR}{aws:PrincipalTag/team}` } },
);
export const statementArb = (
  effect: "Allow" | "Deny",
  withPrincipal: boolean,
  patterns = PATTERNS,
) =>
  fc
    .record({
      actions: fc.subarray(patterns, { minLength: 1, maxLength: 3 }),
      notAction: patterns === PATTERNS ? fc.boolean() : fc.constant(false),
      resources: fc.subarray(RESOURCE_PATTERNS, { minLength: 1, maxLength: 2 }),
      condition: conditionArb,
      principal: fc.constantFrom<unknown>(
        "*",
        { AWS: ACCOUNT },
        { AWS: USER },
        { AWS: ROLE },
        { AWS: USER2 },
        { AWS: [USER, `arn:aws:iam::${ACCOUNT}:root`] },
        { AWS: [ROLE, `arn:aws:sts::${ACCOUNT}:assumed-role/r/s`, ACCOUNT] },
      ),
      notPrincipal: fc.boolean(),
      notResource: fc.boolean(),
      malformed: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom(...MALFORMED) },
      ),
    })
    .map((s) =>
      malform(s.malformed, effect, withPrincipal, {
        Effect: effect,
        [s.notAction ? "NotAction" : "Action"]: s.actions,
        [s.notResource ? "NotResource" : "Resource"]: s.resources,
        ...(s.condition && { Condition: s.condition }),
        // NotPrincipal only with Deny: AWS does not support it with Allow.
        ...(withPrincipal && {
          [effect === "Deny" && s.notPrincipal ? "NotPrincipal" : "Principal"]: s.principal,
        }),
      }),
    );

/** Ways a statement can be invalid (IAM would reject it): the engine must never widen access for them. */
const MALFORMED = ["Action", "Resource", "Condition", "Principal", "Effect"] as const;

function malform(
  how: (typeof MALFORMED)[number] | undefined,
  effect: "Allow" | "Deny",
  withPrincipal: boolean,
  statement: Json,
): Json {
  const actionKey = "Action" in statement ? "Action" : "NotAction";
  const resourceKey = "Resource" in statement ? "Resource" : "NotResource";
  const principalKey = "Principal" in statement ? "Principal" : "NotPrincipal";
  switch (how) {
    case "Action":
      return { ...statement, [actionKey]: { list: statement[actionKey] } };
    case "Resource":
      return { ...statement, [resourceKey]: 5 };
    case "Condition":
      return {
        ...statement,
        Condition: {
          ...(statement.Condition as Json | undefined),
          NumericLessThan: { "aws:MultiFactorAuthAge": { seconds: 1 } },
        },
      };
    case "Principal":
      // A bare ARN string: only "*" may be written without { "AWS": … }.
      return withPrincipal ? { ...statement, [principalKey]: ROLE } : statement;
    case "Effect":
      // Effect is case-sensitive; an invalid Allow would only be dropped.
      return effect === "Deny" ? { ...statement, Effect: "deny" } : statement;
    default:
      return statement;
  }
}

const doc = (statements: Json[]) => ({ Version: "2012-10-17", Statement: statements });
const policySet = (withPrincipal: boolean, patterns = PATTERNS) =>
  fc.array(
    fc.oneof(
      statementArb("Allow", withPrincipal, patterns),
      statementArb("Deny", withPrincipal, patterns),
    ),
    {
      maxLength: 3,
    },
  );

export const scenarioOf = (patterns = PATTERNS) =>
  fc.record({
    userPolicy: policySet(false, patterns),
    rolePolicy: policySet(false, patterns),
    boundary: fc.option(policySet(false, patterns), { nil: undefined }),
    scp: fc.option(policySet(false, patterns), { nil: undefined }),
    bucketPolicy: policySet(true, patterns),
    trustPolicy: policySet(true, patterns),
    keyPolicy: policySet(true, patterns),
  });
export const scenarioArb = scenarioOf();
/** Patterns that can only name actions of the catalogue above: no `*`, no NotAction. */
export const NARROW_PATTERNS = PATTERNS.filter((p) => p !== "*");
export type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;
export type Location = keyof Scenario;
export const LOCATIONS: Location[] = [
  "userPolicy",
  "rolePolicy",
  "boundary",
  "scp",
  "bucketPolicy",
  "trustPolicy",
  "keyPolicy",
];

export function buildModel(s: Scenario) {
  const boundaryArn = `arn:aws:iam::${ACCOUNT}:policy/boundary`;
  const withBoundary = s.boundary !== undefined;
  return createAccountModel({
    authorizationDetails: {
      UserDetailList: [
        {
          UserName: "u",
          Arn: USER,
          UserPolicyList: [{ PolicyName: "p", PolicyDocument: doc(s.userPolicy) }],
          Tags: [{ Key: "team", Value: "red" }],
          ...(withBoundary && { PermissionsBoundary: { PermissionsBoundaryArn: boundaryArn } }),
        },
        {
          UserName: "v",
          Arn: USER2,
          UserPolicyList: [{ PolicyName: "p", PolicyDocument: doc(s.userPolicy) }],
          ...(withBoundary && { PermissionsBoundary: { PermissionsBoundaryArn: boundaryArn } }),
        },
      ],
      RoleDetailList: [
        {
          RoleName: "r",
          Arn: ROLE,
          AssumeRolePolicyDocument: doc(s.trustPolicy),
          RolePolicyList: [{ PolicyName: "p", PolicyDocument: doc(s.rolePolicy) }],
        },
      ],
      Policies: withBoundary
        ? [
            {
              Arn: boundaryArn,
              PolicyName: "boundary",
              PolicyVersionList: [{ IsDefaultVersion: true, Document: doc(s.boundary ?? []) }],
            },
          ]
        : [],
    },
    resourcePolicies: {
      a: doc(s.bucketPolicy),
      b: doc(s.bucketPolicy),
      [KEY]: doc(s.keyPolicy),
      [AWS_MANAGED_KEY]: doc(s.keyPolicy),
    },
    buckets: ["d"],
    awsManagedKeys: [AWS_MANAGED_KEY],
    unreadableKeyPolicies: [UNREAD_KEY],
    ...(s.scp && {
      organization: {
        serviceControlPolicies: [{ target: "r-root", policies: [{ document: doc(s.scp) }] }],
      },
    }),
  });
}
