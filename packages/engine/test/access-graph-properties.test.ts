import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  authorize,
  buildAccessGraph,
  type ConditionAtom,
  createAccountModel,
  evaluateFormula,
  type Formula,
  listAtoms,
} from "../src/index.ts";
import { step } from "./support/graph-steps.ts";
import { doc, roleArn, snapshot, userArn } from "./support/iam-snapshots.ts";

const A = "111111111111";
const B = "222222222222";
const ROLES = [roleArn(A, "ra1"), roleArn(A, "ra2"), roleArn(B, "rb1"), roleArn(B, "rb2")];
const USERS = [userArn(A, "ua"), userArn(B, "ub")];
const PRINCIPALS = [...ROLES, ...USERS];
const NAMED = [...PRINCIPALS, A, B, `arn:aws:iam::${B}:root`, `AROA${A}ra1`, "*"];

type Json = Record<string, unknown>;
const condition = fc.constantFrom<Json | undefined>(
  undefined,
  undefined,
  { StringEquals: { "sts:ExternalId": "x-1" } },
  { StringEquals: { "aws:PrincipalOrgID": "o-abc" } },
  { ArnLike: { "aws:PrincipalArn": "arn:aws:iam::*:role/r?1" } },
  { StringEquals: { "aws:PrincipalTag/team": "red" } },
  { StringEquals: { "aws:PrincipalAccount": B } },
  { Bool: { "aws:MultiFactorAuthPresent": "true" } },
);
const withCondition = (s: Json, c: Json | undefined) => (c ? { ...s, Condition: c } : s);

const trustStatement = fc
  .record({
    effect: fc.constantFrom("Allow", "Allow", "Allow", "Deny"),
    principals: fc.subarray(NAMED, { minLength: 1, maxLength: 3 }),
    notPrincipal: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    action: fc.constantFrom("sts:AssumeRole", "sts:*", "*", "sts:AssumeRoleWithSAML"),
    condition,
    // Invalid (IAM rejects a bare ARN string): dropped for an Allow, a Deny that may apply for a Deny.
    bare: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  })
  .map((s) =>
    withCondition(
      {
        Effect: s.effect,
        [s.notPrincipal ? "NotPrincipal" : "Principal"]: s.principals.includes("*")
          ? "*"
          : s.bare
            ? s.principals[0]
            : { AWS: s.principals },
        Action: s.action,
      },
      s.condition,
    ),
  );

const identityStatement = fc
  .record({
    effect: fc.constantFrom("Allow", "Allow", "Deny"),
    action: fc.constantFrom("sts:AssumeRole", "sts:*", "s3:*"),
    resource: fc.subarray(["*", ...ROLES, `arn:aws:iam::${B}:role/*`], {
      minLength: 1,
      maxLength: 2,
    }),
    condition,
    malformed: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  })
  .map((s) =>
    withCondition(
      {
        Effect: s.effect,
        // An invalid Action (an object): dropped for an Allow, a Deny that may apply for a Deny.
        Action: s.malformed ? { list: s.action } : s.action,
        Resource: s.resource,
      },
      s.condition,
    ),
  );

const scenario = fc.record({
  trusts: fc.array(fc.array(trustStatement, { minLength: 1, maxLength: 3 }), {
    minLength: 4,
    maxLength: 4,
  }),
  identities: fc.array(fc.array(identityStatement, { maxLength: 2 }), {
    minLength: 6,
    maxLength: 6,
  }),
  boundaries: fc.array(fc.constantFrom(undefined, "sts", "s3"), { minLength: 6, maxLength: 6 }),
  scp: fc.constantFrom(undefined, "deny-a", "exempt-r1"),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const BOUNDARIES: Record<string, Json> = {
  sts: doc({ Effect: "Allow", Action: "sts:*", Resource: "*" }),
  s3: doc({ Effect: "Allow", Action: "s3:*", Resource: "*" }),
};
const SCPS: Record<string, Json> = {
  "deny-a": doc(
    { Effect: "Allow", Action: "*", Resource: "*" },
    { Effect: "Deny", Action: "sts:AssumeRole", Resource: `arn:aws:iam::${A}:role/*` },
  ),
  "exempt-r1": doc(
    { Effect: "Allow", Action: "*", Resource: "*" },
    {
      Effect: "Deny",
      Action: "sts:*",
      Resource: "*",
      Condition: { ArnNotLike: { "aws:PrincipalArn": "arn:aws:iam::*:role/r?1" } },
    },
  ),
};

function modelOf(s: Scenario) {
  const boundaryArn = (account: string, i: number) => {
    const kind = s.boundaries[i];
    return kind ? { boundaryArn: `arn:aws:iam::${account}:policy/${kind}` } : {};
  };
  const account = (id: string, offset: number) => ({
    id,
    roles: [0, 1].map((j) => ({
      name: `r${id === A ? "a" : "b"}${j + 1}`,
      trust: doc(...(s.trusts[offset + j] ?? [])),
      statements: s.identities[offset + j] ?? [],
      ...boundaryArn(id, offset + j),
      ...(j === 0 && { tags: { team: "red" } }),
    })),
    users: [
      {
        name: id === A ? "ua" : "ub",
        statements: s.identities[4 + offset / 2] ?? [],
        ...boundaryArn(id, 4 + offset / 2),
      },
    ],
    policies: Object.fromEntries(
      Object.entries(BOUNDARIES).map(([k, d]) => [`arn:aws:iam::${id}:policy/${k}`, d]),
    ),
    organization: {
      organizationId: "o-abc",
      ...(id === B &&
        s.scp && {
          serviceControlPolicies: [{ target: "r-root", policies: [{ document: SCPS[s.scp] }] }],
        }),
    },
  });
  return createAccountModel([snapshot(account(A, 0)), snapshot(account(B, 2))]);
}

/** Both formulas agree under every assignment of their atoms (atoms compared by content). */
function equivalent(f: Formula, g: Formula): boolean {
  const key = (a: ConditionAtom) => JSON.stringify(a);
  const atoms = [...new Set([...listAtoms(f), ...listAtoms(g)].map(key))];
  if (atoms.length > 12) return true;
  for (let bits = 0; bits < 1 << atoms.length; bits++) {
    const value = (a: ConditionAtom) => ((bits >> atoms.indexOf(key(a))) & 1) === 1;
    if (evaluateFormula(f, value) !== evaluateFormula(g, value)) return false;
  }
  return true;
}

describe("the access graph agrees with authorize", () => {
  it("every (principal, role) pair: one step in the graph exactly when authorize allows sts:AssumeRole", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const model = modelOf(s);
        const graph = buildAccessGraph(model);
        for (const principal of PRINCIPALS) {
          for (const role of ROLES) {
            const want = authorize(model, { principal, action: "sts:AssumeRole", resource: role });
            const got = step(graph, principal, role);
            const label = `${principal} → ${role}`;
            if (want.decision === "allowed") expect(got, label).toEqual({ conditional: false });
            else if (want.decision === "conditional") {
              expect(got?.conditional, label).toBe(true);
              expect(equivalent(got?.condition as Formula, want.condition as Formula), label).toBe(
                true,
              );
            } else expect(got, label).toBeUndefined();
          }
        }
      }),
      {
        numRuns: 300,
        seed: -1339405349,
        path: "179:0:0:0:0:0:0:0:0:0:0:0:0:0:0:1:2:1:1:2:3:3:3:0:0:0:0:0:3:2:2:6:2:2:3:0:0:0:0:0:0:0:0",
        endOnFailure: true,
      },
    );
  });
});

describe("a condition of a caller's identity policy names the caller's own policy", () => {
  // Found by the property above (seed -1339405349): ra1 and ra2 hold equal inline policies,
  // so they were one group whose shared decision named ra1's policy for ra2 as well.
  const externalId: Json = {
    Effect: "Allow",
    Action: "sts:AssumeRole",
    Resource: ["*"],
    Condition: { StringEquals: { "sts:ExternalId": "x-1" } },
  };
  const s: Scenario = {
    trusts: [
      [{ Effect: "Allow", NotPrincipal: `AROA${A}ra1`, Action: "sts:AssumeRole" }],
      [{ Effect: "Allow", NotPrincipal: A, Action: "sts:AssumeRole" }],
      [
        {
          Effect: "Allow",
          Principal: { AWS: [A, `arn:aws:iam::${B}:root`] },
          Action: "sts:AssumeRole",
        },
      ],
      [{ Effect: "Allow", NotPrincipal: `arn:aws:iam::${B}:root`, Action: "sts:AssumeRole" }],
    ],
    identities: [[externalId], [{ ...externalId }], [], [], [], []],
    boundaries: [undefined, undefined, undefined, undefined, undefined, undefined],
    scp: undefined,
  };

  it("two roles with equal inline policies, trusted through their account: each step as authorize gives it", () => {
    const model = modelOf(s);
    const graph = buildAccessGraph(model);
    for (const principal of [roleArn(A, "ra1"), roleArn(A, "ra2")]) {
      const role = roleArn(B, "rb1");
      const want = authorize(model, { principal, action: "sts:AssumeRole", resource: role });
      expect(want.decision).toBe("conditional");
      const got = step(graph, principal, role);
      expect(got?.conditional, principal).toBe(true);
      expect(got?.condition, principal).toEqual(want.condition);
      expect(listAtoms(got?.condition as Formula).map((a) => a.policyId)).toEqual([
        `${principal}#inline#inline`,
      ]);
    }
  });
});
