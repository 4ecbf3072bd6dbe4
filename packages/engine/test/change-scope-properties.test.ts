import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACCOUNT, generateAccount } from "../bench/generate-account.ts";
import {
  type AccountSnapshot,
  analyzeAccount,
  changeScope,
  createAccountModel,
  principalReach,
} from "../src/index.ts";

/**
 * An event step analyses only what `changeScope` says a change reaches and keeps the rest of the
 * previous analysis. Here, on random accounts and random changes, the rows it would keep and
 * the rows it would make together are exactly a whole analysis of the changed account.
 */

const TINY = {
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
const accounts = [ACCOUNT];
const arnOf = (kind: string, name: string) => `arn:aws:iam::${ACCOUNT}:${kind}/${name}`;
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

type Details = {
  UserDetailList: Json[];
  RoleDetailList: Json[];
  GroupDetailList: Json[];
  Policies: Json[];
};

/** The changes an event can name, as edits of the snapshot. */
const MUTATIONS: Record<string, (s: AccountSnapshot, d: Details, n: readonly number[]) => void> = {
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

const key = (row: unknown) => JSON.stringify(row);
const sorted = (rows: Iterable<unknown>) => [...rows].map(key).sort();

/** The rows of the whole analysis of `after`, and those the event step would store. */
function bothWays(before: AccountSnapshot, after: AccountSnapshot) {
  const [m0, m1] = [createAccountModel(before), createAccountModel(after)];
  const scope = changeScope({ snapshot: before, model: m0 }, { snapshot: after, model: m1 });
  if (scope.kind === "all") return undefined;
  const [full0, full1] = [analyzeAccount(m0, { accounts }), analyzeAccount(m1, { accounts })];
  const scoped = analyzeAccount(m1, { accounts, scope });
  const inScope = (arn: string) => scope.principals.has(arn);
  const kept = <T extends { principalArn: string }>(rows: Iterable<T>) =>
    [...rows].filter((r) => !inScope(r.principalArn));
  const reach = [...principalReach(m1, scope.principals, scope.resources, { accounts })];
  const keptResources = [...full0.resourceAccessSummaries()].filter(
    (r) => !scope.resources.has(r.resourceArn) && !inScope(r.principal),
  );
  return {
    scope,
    full: {
      principals: sorted(full1.principals),
      access: sorted(full1.principalAccessSummaries()),
      resources: sorted(full1.resources),
      reach: sorted(full1.resourceAccessSummaries()),
    },
    stepped: {
      principals: sorted([...kept(full0.principals), ...scoped.principals]),
      access: sorted([
        ...kept(full0.principalAccessSummaries()),
        ...scoped.principalAccessSummaries(),
      ]),
      resources: sorted([
        ...full0.resources.filter((r) => !scope.resources.has(r.resourceArn)),
        ...scoped.resources,
      ]),
      reach: sorted([...keptResources, ...scoped.resourceAccessSummaries(), ...reach]),
    },
  };
}

const mutationArb = fc.record({
  kind: fc.constantFrom(...Object.keys(MUTATIONS)),
  n: fc.array(fc.nat(1000), { minLength: 6, maxLength: 6 }),
});

describe("changeScope", () => {
  it("keeps and remakes rows that together equal a whole analysis of the changed account", () => {
    let scoped = 0;
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        (seed, mutations) => {
          const before = generateAccount(TINY, seed);
          const after = structuredClone(before);
          const details = after.authorizationDetails as Details;
          for (const { kind, n } of mutations) MUTATIONS[kind]?.(after, details, n);
          const result = bothWays(before, after);
          if (!result) return;
          scoped++;
          expect(result.stepped.principals).toEqual(result.full.principals);
          expect(result.stepped.access).toEqual(result.full.access);
          expect(result.stepped.resources).toEqual(result.full.resources);
          expect(result.stepped.reach).toEqual(result.full.reach);
        },
      ),
      {
        numRuns: 80,
        examples: [
          [
            9995,
            [
              { kind: "roleInline", n: [0, 0, 0, 0, 169, 0] },
              { kind: "userInline", n: [0, 0, 0, 0, 0, 0] },
            ],
          ],
        ],
      },
    );
    // Most changes are analysed in part: the test is not passing by falling back.
    expect(scoped).toBeGreaterThan(50);
  }, 120_000);

  it("scopes one user's inline policy to that user", () => {
    const before = generateAccount(TINY, 7);
    const after = structuredClone(before);
    MUTATIONS.userInline?.(after, after.authorizationDetails as Details, [0, 1, 1, 0, 3, 0]);
    const scope = changeScope(
      { snapshot: before, model: createAccountModel(before) },
      { snapshot: after, model: createAccountModel(after) },
    );
    expect(scope).toEqual({
      kind: "some",
      principals: new Set([arnOf("user", "user-3")]),
      resources: new Set(),
    });
  });

  it("takes the whole account when the organisation's policies change", () => {
    const before = generateAccount(TINY, 7);
    const after = { ...structuredClone(before), organization: { serviceControlPolicies: [] } };
    const scope = changeScope(
      { snapshot: before, model: createAccountModel(before) },
      { snapshot: after, model: createAccountModel(after) },
    );
    expect(scope.kind).toBe("all");
  });
});
