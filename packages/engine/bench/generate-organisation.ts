import type { AccountSnapshot } from "../src/index.ts";
import { Random } from "./random.ts";

export interface OrganisationSize {
  name: string;
  accounts: number;
  roles: number;
}

export const ORGANISATIONS: Record<"org10k" | "org100k", OrganisationSize> = {
  org10k: { name: "org10k", accounts: 50, roles: 10_000 },
  org100k: { name: "org100k", accounts: 500, roles: 100_000 },
};

type Json = Record<string, unknown>;
const doc = (...Statement: Json[]) => ({ Version: "2012-10-17", Statement });
const ORG = "o-sightline01";
const OUTSIDE = ["210987654321", "345678901234", "456789012345"];

const accountId = (i: number) => String(100_000_000_000 + i * 7919);
const roleName = (i: number) => `role-${i}`;

interface RolePlan {
  account: number;
  name: string;
  trusted: Set<number>;
  trustAccounts: string[];
  extras: Json[];
  assumeAny: boolean;
  targets: Set<number>;
}

/**
 * A seeded organisation of `accounts` accounts and `roles` roles: power-law fan-in
 * (most roles trusted by one or two principals, a few by hundreds), 5% of roles trusting
 * a whole account, a few hub roles trusted across the organisation, two roles trusting
 * `*` within the organisation (aws:PrincipalOrgID), service and external-ID trusts, and
 * cycles where trusts point back. 30% of roles may assume any role; most others hold an
 * inline policy naming the roles they are meant to assume (one in ten is missing one).
 */
export function generateOrganisation(size: OrganisationSize, seed = 42): AccountSnapshot[] {
  const rnd = new Random(seed);
  const perAccount = Math.floor(size.roles / size.accounts);
  const plans: RolePlan[] = [];
  for (let i = 0; i < size.roles; i++) {
    plans.push({
      account: Math.min(Math.floor(i / perAccount), size.accounts - 1),
      name: roleName(i),
      trusted: new Set(),
      trustAccounts: [],
      extras: [],
      assumeAny: rnd.chance(0.3),
      targets: new Set(),
    });
  }
  const arnOf = (i: number) => {
    const p = plans[i] as RolePlan;
    return `arn:aws:iam::${accountId(p.account)}:role/${p.name}`;
  };
  const sameAccountRole = (p: RolePlan) => p.account * perAccount + rnd.int(perAccount);
  const hubs = Math.max(5, Math.floor(size.roles / 2000));
  plans.forEach((plan, i) => {
    // Pareto fan-in: P(k) ∝ k^-2.5, capped; hubs are trusted by hundreds.
    let fanIn = Math.min(200, Math.floor(1 / (1 - rnd.next()) ** (1 / 1.5)));
    if (i % Math.floor(size.roles / hubs) === 0) fanIn = 200 + rnd.int(800);
    for (let k = 0; k < fanIn; k++) {
      const source = rnd.chance(0.6) ? sameAccountRole(plan) : rnd.int(size.roles);
      if (source !== i || rnd.chance(0.05)) plan.trusted.add(source);
    }
    // Cycles: now and then the role trusts one it is trusted by.
    if (rnd.chance(0.02)) {
      const back = sameAccountRole(plan);
      plan.trusted.add(back);
      plans[back]?.trusted.add(i);
    }
    if (rnd.chance(0.05)) plan.trustAccounts.push(accountId(rnd.int(size.accounts)));
    if (rnd.chance(0.2))
      plan.extras.push({
        Effect: "Allow",
        Principal: { Service: rnd.pick(["ec2.amazonaws.com", "lambda.amazonaws.com"]) },
        Action: "sts:AssumeRole",
      });
    if (rnd.chance(0.01))
      plan.extras.push({
        Effect: "Allow",
        Principal: { AWS: rnd.pick(OUTSIDE) },
        Action: "sts:AssumeRole",
        Condition: { StringEquals: { "sts:ExternalId": `ext-${i}` } },
      });
    if (i === 1 || i === Math.floor(size.roles / 2) + 1)
      plan.extras.push({
        Effect: "Allow",
        Principal: { AWS: "*" },
        Action: "sts:AssumeRole",
        Condition: { StringEquals: { "aws:PrincipalOrgID": ORG } },
      });
  });
  // Identity side: sources of cross-account trusts (and a few members of trusted accounts) name their targets.
  plans.forEach((plan, i) => {
    for (const source of plan.trusted) {
      const s = plans[source] as RolePlan;
      if (s.account !== plan.account && !s.assumeAny && rnd.chance(0.9)) s.targets.add(i);
    }
    for (const account of plan.trustAccounts) {
      const a = (Number(account) - 100_000_000_000) / 7919;
      for (let k = 0; k < 3; k++) plans[a * perAccount + rnd.int(perAccount)]?.targets.add(i);
    }
  });
  const byAccount = Array.from({ length: size.accounts }, () => [] as RolePlan[]);
  for (const p of plans) byAccount[p.account]?.push(p);
  return byAccount.map((list, a) => accountSnapshot(a, list, arnOf, rnd));
}

function accountSnapshot(
  a: number,
  plans: RolePlan[],
  arnOf: (i: number) => string,
  rnd: Random,
): AccountSnapshot {
  const id = accountId(a);
  const assumeAny = `arn:aws:iam::${id}:policy/assume-any`;
  const readLogs = `arn:aws:iam::${id}:policy/read-logs`;
  const roles = plans.map((p) => {
    const statements: Json[] = [...p.extras];
    const principals = [...p.trusted].map(arnOf).concat(p.trustAccounts);
    if (principals.length > 0)
      statements.push({
        Effect: "Allow",
        Principal: { AWS: principals },
        Action: "sts:AssumeRole",
      });
    if (statements.length === 0)
      statements.push({
        Effect: "Allow",
        Principal: { Service: "ec2.amazonaws.com" },
        Action: "sts:AssumeRole",
      });
    const inline: Json[] = [
      {
        PolicyName: "logs",
        PolicyDocument: doc({ Effect: "Allow", Action: "logs:Get*", Resource: "*" }),
      },
    ];
    if (p.targets.size > 0)
      inline.push({
        PolicyName: "assume-targets",
        PolicyDocument: doc({
          Effect: "Allow",
          Action: "sts:AssumeRole",
          Resource: [...p.targets].map(arnOf),
        }),
      });
    return {
      Path: "/",
      RoleName: p.name,
      RoleId: `AROA${id}${p.name}`,
      Arn: `arn:aws:iam::${id}:role/${p.name}`,
      AssumeRolePolicyDocument: doc(...statements),
      RolePolicyList: inline,
      AttachedManagedPolicies: [
        ...(p.assumeAny ? [{ PolicyArn: assumeAny }] : []),
        ...(rnd.chance(0.5) ? [{ PolicyArn: readLogs }] : []),
      ],
      Tags: [],
    };
  });
  const users = [0, 1].map((u) => ({
    Path: "/",
    UserName: `person-${u}`,
    UserId: `AIDA${id}${u}`,
    Arn: `arn:aws:iam::${id}:user/person-${u}`,
    GroupList: [],
    UserPolicyList: [],
    AttachedManagedPolicies: [{ PolicyArn: assumeAny }],
    Tags: [],
  }));
  const managed = (arn: string, document: Json) => ({
    Arn: arn,
    PolicyName: arn.split("/").pop(),
    DefaultVersionId: "v1",
    PolicyVersionList: [{ VersionId: "v1", IsDefaultVersion: true, Document: document }],
  });
  const scps = [
    {
      target: "r-root",
      policies: [{ document: doc({ Effect: "Allow", Action: "*", Resource: "*" }) }],
    },
  ];
  if (a % 10 === 3)
    scps.push({
      target: `ou-${a}`,
      policies: [
        {
          document: doc(
            { Effect: "Allow", Action: "*", Resource: "*" },
            {
              Effect: "Deny",
              Action: "sts:AssumeRole",
              Resource: "arn:aws:iam::*:role/break-glass-*",
            },
          ),
        },
      ],
    });
  return {
    accountId: id,
    authorizationDetails: {
      UserDetailList: users,
      GroupDetailList: [],
      RoleDetailList: roles,
      Policies: [
        managed(assumeAny, doc({ Effect: "Allow", Action: "sts:AssumeRole", Resource: "*" })),
        managed(
          readLogs,
          doc({ Effect: "Allow", Action: ["logs:Describe*", "logs:Get*"], Resource: "*" }),
        ),
      ],
    },
    organization: { organizationId: ORG, serviceControlPolicies: scps },
  };
}
