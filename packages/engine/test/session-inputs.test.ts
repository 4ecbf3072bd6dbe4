import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AccountSnapshot,
  type AuthorizationRequest,
  authorize,
  createAccountModel,
  type Decision,
} from "../src/index.ts";

const SESSION = "arn:aws:sts::111111111111:assumed-role/app/worker";
const model = createAccountModel({
  authorizationDetails: {
    UserDetailList: [
      {
        Path: "/",
        UserName: "alice",
        UserId: "AIDAALICE",
        Arn: "arn:aws:iam::111111111111:user/alice",
        UserPolicyList: [
          {
            PolicyName: "all",
            PolicyDocument: {
              Version: "2012-10-17",
              Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
            },
          },
        ],
        GroupList: [],
        AttachedManagedPolicies: [],
        Tags: [],
      },
    ],
    GroupDetailList: [],
    RoleDetailList: [
      {
        Path: "/",
        RoleName: "app",
        RoleId: "AROAAPP",
        Arn: "arn:aws:iam::111111111111:role/app",
        AssumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] },
        RolePolicyList: [
          {
            PolicyName: "all",
            PolicyDocument: {
              Version: "2012-10-17",
              Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
            },
          },
        ],
        AttachedManagedPolicies: [],
        Tags: [],
      },
    ],
    Policies: [],
  },
  // The account owns the bucket the requests name.
  buckets: ["data"],
});

function ask(session: unknown, principal = SESSION) {
  return authorize(model, {
    principal,
    action: "s3:GetObject",
    resource: "arn:aws:s3:::data/k",
    session,
  } as AuthorizationRequest);
}

describe("session inputs", () => {
  it("denies, with an issue naming the field, when a session input has a bad shape", () => {
    const bad: [unknown, string][] = [
      ["x", "session"],
      [[], "session"],
      [{ policies: {} }, "session.policies"],
      [{ policies: [null] }, "session.policies[0]"],
      [{ policyArns: "arn:aws:iam::111111111111:policy/x" }, "session.policyArns"],
      [{ policyArns: [7] }, "session.policyArns[0]"],
      [{ policyArns: ["arn:aws:iam::111111111111:policy/missing"] }, "session.policyArns[0]"],
      [{ tags: ["a"] }, "session.tags"],
      [{ tags: { team: 1 } }, "session.tags.team"],
      [{ tags: { team: "a", TEAM: "b" } }, "session.tags.TEAM"],
      [{ tags: { ["k".repeat(129)]: "v" } }, `session.tags.${"k".repeat(129)}`],
      [
        { tags: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
        "session.tags",
      ],
      [{ transitiveTagKeys: "team" }, "session.transitiveTagKeys"],
      [{ tags: { team: "a" }, transitiveTagKeys: ["project"] }, "session.transitiveTagKeys[0]"],
    ];
    for (const [session, path] of bad) {
      const result = ask(session);
      expect(result.decision, JSON.stringify(session)).toBe("implicit-deny");
      expect(
        result.issues.filter((i) => i.severity === "error").map((i) => i.path),
        JSON.stringify(session),
      ).toContain(path);
    }
  });

  it("accepts session inputs only for a role or an assumed-role session", () => {
    const result = ask({ tags: { team: "a" } }, "arn:aws:iam::111111111111:user/alice");
    expect(result.decision).toBe("implicit-deny");
    expect(result.issues.map((i) => i.path)).toContain("session");
    expect(ask({ tags: { team: "a" } }, "arn:aws:iam::111111111111:role/app").decision).toBe(
      "allowed",
    );
  });

  it("an empty session changes nothing; an unknown field is a warning", () => {
    expect(ask({}).decision).toBe("allowed");
    expect(ask({ policies: [] }).decision).toBe("allowed");
    const result = ask({ sessionPolicy: {} });
    expect(result.decision).toBe("allowed");
    expect(result.issues).toEqual([
      { path: "session.sessionPolicy", message: "unknown field, ignored", severity: "warning" },
    ]);
  });

  it("an invalid Deny in a session policy is kept as a Deny that may apply", () => {
    const result = ask({
      policies: [
        {
          Version: "2012-10-17",
          Statement: [
            { Effect: "Allow", Action: "*", Resource: "*" },
            { Effect: "Deny", Action: "s3:GetObject", Resource: "*", Condition: { Bogus: "x" } },
          ],
        },
      ],
    });
    expect(result.decision).toBe("conditional");
    expect(result.issues.some((i) => i.path.startsWith("session.policies[0]"))).toBe(true);
  });

  it("an unreadable session policy document grants nothing", () => {
    const result = ask({ policies: ["{not json"] });
    expect(result.decision).toBe("implicit-deny");
    expect(result.issues.map((i) => i.severity)).toContain("warning");
  });

  it("names the session policy in the explanation", () => {
    const result = ask({
      policies: [
        { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "ec2:*", Resource: "*" }] },
      ],
    });
    expect(result).toMatchObject({ decision: "implicit-deny", stoppedBy: "session" });
    expect(result.notes.some((n) => n.startsWith("session policies:"))).toBe(true);
  });
});

const RANK: Record<Decision, number> = {
  "explicit-deny": 0,
  "implicit-deny": 0,
  conditional: 1,
  allowed: 2,
};

describe("session policies on every fixture case of a role or session", () => {
  const dir = join(import.meta.dirname, "fixtures", "authorize");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const fixture = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
      accounts: AccountSnapshot[];
      cases: { request: AuthorizationRequest }[];
    };
    const cases = fixture.cases.filter(
      (c) =>
        c.request.session === undefined &&
        /^arn:[^:]+:(iam::\d{12}:role\/|sts::\d{12}:assumed-role\/)/.test(c.request.principal),
    );
    if (cases.length === 0) continue;
    it(`${file}: Allow * changes no decision, a narrower policy never widens`, () => {
      const fixtureModel = createAccountModel(fixture.accounts);
      let checked = 0;
      for (const { request } of cases) {
        const before = authorize(fixtureModel, request);
        if (before.issues.some((i) => i.severity === "error")) continue;
        checked++;
        const allowAll = {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
        };
        const narrow = {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: "s3:Get*", Resource: "*" }],
        };
        const neutral = authorize(fixtureModel, { ...request, session: { policies: [allowAll] } });
        expect(neutral.decision, JSON.stringify(request)).toBe(before.decision);
        const narrowed = authorize(fixtureModel, { ...request, session: { policies: [narrow] } });
        expect(RANK[narrowed.decision], JSON.stringify(request)).toBeLessThanOrEqual(
          RANK[before.decision],
        );
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
