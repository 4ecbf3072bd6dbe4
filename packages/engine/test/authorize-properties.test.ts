import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AuthorizationRequest,
  authorize,
  createAccountModel,
  type Decision,
} from "../src/index.ts";

const ACCOUNT = "111111111111";
const USER = `arn:aws:iam::${ACCOUNT}:user/u`;
const ROLE = `arn:aws:iam::${ACCOUNT}:role/r`;
const ACTIONS = ["s3:GetObject", "s3:PutObject", "iam:CreateUser", "kms:Decrypt", "sts:AssumeRole"];
const PATTERNS = [...ACTIONS, "s3:*", "*", "s3:Get*", "iam:*", "k?s:Decrypt"];
const RESOURCES = [
  "*",
  "arn:aws:s3:::a/k",
  "arn:aws:s3:::b/k",
  ROLE,
  `arn:aws:kms:us-east-1:${ACCOUNT}:key/k1`,
];
const RESOURCE_PATTERNS = ["*", "arn:aws:s3:::a/*", "arn:aws:s3:::*", ROLE, "arn:aws:kms:*"];

type Json = Record<string, unknown>;
const conditionArb = fc.constantFrom<Json | undefined>(
  undefined,
  { StringEquals: { "aws:SourceVpc": "vpc-1" } },
  { Bool: { "aws:SecureTransport": "true" } },
  { StringEquals: { "aws:PrincipalType": "User" } },
);
const statementArb = (effect: "Allow" | "Deny", withPrincipal: boolean, patterns = PATTERNS) =>
  fc
    .record({
      actions: fc.subarray(patterns, { minLength: 1, maxLength: 3 }),
      notAction: patterns === PATTERNS ? fc.boolean() : fc.constant(false),
      resources: fc.subarray(RESOURCE_PATTERNS, { minLength: 1, maxLength: 2 }),
      condition: conditionArb,
      principal: fc.constantFrom<unknown>("*", { AWS: ACCOUNT }, { AWS: USER }, { AWS: ROLE }),
    })
    .map((s) => ({
      Effect: effect,
      [s.notAction ? "NotAction" : "Action"]: s.actions,
      Resource: s.resources,
      ...(s.condition && { Condition: s.condition }),
      ...(withPrincipal && { Principal: s.principal }),
    }));

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

const scenarioOf = (patterns = PATTERNS) =>
  fc.record({
    userPolicy: policySet(false, patterns),
    rolePolicy: policySet(false, patterns),
    boundary: fc.option(policySet(false, patterns), { nil: undefined }),
    scp: fc.option(policySet(false, patterns), { nil: undefined }),
    bucketPolicy: policySet(true, patterns),
    trustPolicy: policySet(true, patterns),
    keyPolicy: policySet(true, patterns),
  });
const scenarioArb = scenarioOf();
/** Patterns that can only name actions of the catalogue above: no `*`, no NotAction. */
const NARROW_PATTERNS = PATTERNS.filter((p) => p !== "*");
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;
type Location = keyof Scenario;
const LOCATIONS: Location[] = [
  "userPolicy",
  "rolePolicy",
  "boundary",
  "scp",
  "bucketPolicy",
  "trustPolicy",
  "keyPolicy",
];

function buildModel(s: Scenario) {
  const boundaryArn = `arn:aws:iam::${ACCOUNT}:policy/boundary`;
  const withBoundary = s.boundary !== undefined;
  return createAccountModel({
    authorizationDetails: {
      UserDetailList: [
        {
          UserName: "u",
          Arn: USER,
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
      [RESOURCES[4] as string]: doc(s.keyPolicy),
    },
    ...(s.scp && {
      organization: {
        serviceControlPolicies: [{ target: "r-root", policies: [{ document: doc(s.scp) }] }],
      },
    }),
  });
}

const RANK: Record<Decision, number> = {
  "explicit-deny": 0,
  "implicit-deny": 0,
  conditional: 1,
  allowed: 2,
};
const requestArb = fc.record({
  principal: fc.constantFrom(USER, ROLE),
  action: fc.constantFrom(...ACTIONS),
  resource: fc.constantFrom(...RESOURCES),
});
const decide = (s: Scenario, r: AuthorizationRequest) => authorize(buildModel(s), r).decision;

function addStatement(s: Scenario, where: Location, statement: Json): Scenario {
  const usesPrincipal =
    where === "bucketPolicy" || where === "trustPolicy" || where === "keyPolicy";
  const clean = usesPrincipal
    ? statement
    : Object.fromEntries(Object.entries(statement).filter(([k]) => k !== "Principal"));
  return { ...s, [where]: [...(s[where] ?? []), clean] };
}

describe("authorize properties", () => {
  it("adding a Deny statement never widens access", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        requestArb,
        fc.constantFrom(...LOCATIONS),
        statementArb("Deny", true),
        (s, r, where, st) => {
          if (where === "boundary" && !s.boundary) return;
          if (where === "scp" && !s.scp) return;
          expect(RANK[decide(addStatement(s, where, st), r)]).toBeLessThanOrEqual(
            RANK[decide(s, r)],
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("adding an Allow statement never narrows access", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        requestArb,
        fc.constantFrom(...LOCATIONS),
        statementArb("Allow", true),
        (s, r, where, st) => {
          // A new boundary or SCP layer is a new limit, not an added Allow.
          if (where === "boundary" && !s.boundary) return;
          if (where === "scp" && !s.scp) return;
          expect(RANK[decide(addStatement(s, where, st), r)]).toBeGreaterThanOrEqual(
            RANK[decide(s, r)],
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never grants an action that no policy names", () => {
    fc.assert(
      fc.property(scenarioOf(NARROW_PATTERNS), requestArb, (s, r) => {
        const unnamed = { ...r, action: "unnamedservice:DoSomething" };
        expect(decide(s, unnamed)).toBe("implicit-deny");
      }),
      { numRuns: 300 },
    );
  });
});
