import { describe, expect, it } from "vitest";
import {
  authorize,
  createAccountModel,
  evaluateFormula,
  formatAuthorization,
} from "../src/index.ts";

const A = "111111111111";
const model = createAccountModel({
  authorizationDetails: {
    UserDetailList: [
      {
        UserName: "u",
        Arn: `arn:aws:iam::${A}:user/u`,
        UserPolicyList: [
          {
            PolicyName: "read",
            PolicyDocument: {
              Version: "2012-10-17",
              Statement: [
                {
                  Sid: "Read",
                  Effect: "Allow",
                  Action: "s3:GetObject",
                  Resource: "*",
                  Condition: { Bool: { "aws:MultiFactorAuthPresent": "true" } },
                },
                {
                  Effect: "Deny",
                  Action: "s3:GetObject",
                  Resource: "*",
                  Condition: { IpAddress: { "aws:SourceIp": "10.0.0.0/8" } },
                },
              ],
            },
          },
        ],
      },
    ],
  },
  buckets: ["b"],
});

describe("authorize explanations", () => {
  const request = {
    principal: `arn:aws:iam::${A}:user/u`,
    action: "s3:GetObject",
    resource: "arn:aws:s3:::b/k",
  };

  it("carries the undecided conditions as a formula that decides once they are known", () => {
    const result = authorize(model, request);
    expect(result.decision).toBe("conditional");
    expect(result.conditions.map((c) => c.key).sort()).toEqual([
      "aws:MultiFactorAuthPresent",
      "aws:SourceIp",
    ]);
    const holds = (mfa: boolean, inCorp: boolean) =>
      evaluateFormula(result.condition ?? { kind: "false" }, (atom) =>
        atom.key === "aws:MultiFactorAuthPresent" ? mfa : inCorp,
      );
    expect(holds(true, false)).toBe(true);
    expect(holds(true, true)).toBe(false);
    expect(holds(false, false)).toBe(false);
    for (const [mfa, ip] of [
      [true, "192.0.2.1"],
      [true, "10.1.1.1"],
      [false, "192.0.2.1"],
    ] as const) {
      const decided = authorize(model, {
        ...request,
        context: { "aws:MultiFactorAuthPresent": mfa, "aws:SourceIp": ip },
      });
      expect(decided.decision === "allowed").toBe(holds(mfa, ip.startsWith("10.")));
    }
  });

  it("lists every statement that matched with its policy, type and Sid or index", () => {
    const result = authorize(model, request);
    expect(result.statements).toEqual([
      expect.objectContaining({
        policyName: "read",
        policyType: "identity",
        statement: "Read",
        effect: "Allow",
        match: "conditional",
      }),
      expect.objectContaining({
        policyName: "read",
        policyType: "identity",
        statement: "#1",
        effect: "Deny",
        match: "conditional",
      }),
    ]);
    expect(result.notes.join(" ")).toContain("same account");
  });

  it("reports an unknown principal of a known account as an issue, not a throw", () => {
    const result = authorize(model, { ...request, principal: `arn:aws:iam::${A}:user/ghost` });
    expect(result.decision).toBe("implicit-deny");
    expect(result.issues[0]?.path).toBe("principal");
  });
});

describe("formatAuthorization", () => {
  it("renders the decision, the condition and each statement", () => {
    const text = formatAuthorization(
      authorize(model, {
        principal: `arn:aws:iam::${A}:user/u`,
        action: "s3:GetObject",
        resource: "arn:aws:s3:::b/k",
      }),
    );
    expect(text).toContain("decision: conditional");
    const when = text.split("\n").find((l) => l.startsWith("allowed only when: ")) ?? "";
    expect(when).toContain('NOT (IpAddress aws:SourceIp ["10.0.0.0/8"]');
    expect(when).toContain(' AND Bool aws:MultiFactorAuthPresent ["true"]');
    expect(text).toContain("Allow identity read Read [if conditions hold]");
  });

  it("names the policy type that stopped a denial", () => {
    const text = formatAuthorization(
      authorize(model, {
        principal: `arn:aws:iam::${A}:user/u`,
        action: "s3:PutObject",
        resource: "*",
      }),
    );
    expect(text.split("\n")[0]).toBe("decision: implicit-deny (stopped by identity)");
  });
});

describe("authorize on a malformed request", () => {
  it("returns the problem as an issue", () => {
    const result = authorize(model, {
      principal: `arn:aws:iam::${A}:user/u`,
      action: "",
      resource: 42 as never,
    });
    expect(result.decision).toBe("implicit-deny");
    expect(result.issues.map((i) => i.path)).toEqual(["action", "resource"]);
  });
});

describe("explanations of invalid statements", () => {
  const model = createAccountModel({
    authorizationDetails: {
      UserDetailList: [
        {
          UserName: "v",
          Arn: `arn:aws:iam::${A}:user/v`,
          UserPolicyList: [
            {
              PolicyName: "mixed",
              PolicyDocument: {
                Version: "2012-10-17",
                Statement: [
                  { Effect: "Allow", Action: "s3:*", Resource: "*" },
                  { Sid: "Broken", Effect: "Deny", Action: "s3:GetObject", Resource: ["*", 1] },
                ],
              },
            },
          ],
        },
      ],
    },
    buckets: ["b"],
  });
  const result = authorize(model, {
    principal: `arn:aws:iam::${A}:user/v`,
    action: "s3:GetObject",
    resource: "arn:aws:s3:::b/k",
  });

  it("names the invalid statement in an undecidable condition and a per-request issue", () => {
    expect(result.decision).toBe("conditional");
    expect(result.conditions).toEqual([
      {
        policyId: `arn:aws:iam::${A}:user/v#inline#mixed`,
        policyType: "identity",
        statement: "Broken",
        operator: "Invalid",
        key: "Resource",
        values: [
          "UserDetailList[0].UserPolicyList[0].PolicyDocument.Statement[1].Resource: must be a string or an array of strings",
        ],
      },
    ]);
    expect(result.statements.find((s) => s.statement === "Broken")?.invalid).toHaveLength(1);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ severity: "warning" });
    expect(result.issues[0]?.path).toContain("#inline#mixed Broken");
    const text = formatAuthorization(result);
    expect(text).toContain("allowed only when: NOT (Invalid Resource");
    expect(text).toContain("Deny  identity mixed Broken [invalid, kept as a Deny that may apply]");
  });

  it("keeps the statement's valid Action: other actions are not affected", () => {
    const other = authorize(model, {
      principal: `arn:aws:iam::${A}:user/v`,
      action: "s3:PutObject",
      resource: "arn:aws:s3:::b/k",
    });
    expect(other.decision).toBe("allowed");
    expect(other.issues).toEqual([]);
  });
});

describe("explanations of requests AWS refuses on protected resources", () => {
  const admin = createAccountModel({
    authorizationDetails: {
      UserDetailList: [
        {
          UserName: "admin",
          Arn: `arn:aws:iam::${A}:user/admin`,
          UserPolicyList: [
            {
              PolicyName: "all",
              PolicyDocument: {
                Version: "2012-10-17",
                Statement: [
                  { Sid: "All", Effect: "Allow", Action: "*", Resource: "*" },
                  {
                    Sid: "NoTags",
                    Effect: "Deny",
                    Action: "iam:TagPolicy",
                    Resource: "arn:aws:iam::aws:policy/*",
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  });
  const principal = `arn:aws:iam::${A}:user/admin`;

  it("says AWS refuses it, keeps the matched statements and names no policy type", () => {
    const result = authorize(admin, {
      principal,
      action: "iam:DeletePolicy",
      resource: "arn:aws:iam::aws:policy/AdministratorAccess",
    });
    expect(result.decision).toBe("implicit-deny");
    expect(result.stoppedBy).toBeUndefined();
    expect(result.statements.map((s) => s.statement)).toEqual(["All"]);
    expect(result.notes.some((n) => n.includes("AWS does not let customers"))).toBe(true);
    expect(result.notes.some((n) => n.includes("'AWS managed policies'"))).toBe(true);
  });

  it("keeps an explicit deny that applies too", () => {
    const result = authorize(admin, {
      principal,
      action: "iam:TagPolicy",
      resource: "arn:aws:iam::aws:policy/AdministratorAccess",
    });
    expect(result.decision).toBe("explicit-deny");
    expect(result.stoppedBy).toBe("identity");
  });
});

describe("a bucket of unknown owner", () => {
  it("is conditional on ownership, and the explanation says so", () => {
    const unlisted = createAccountModel({
      authorizationDetails: {
        UserDetailList: [
          {
            UserName: "w",
            Arn: `arn:aws:iam::${A}:user/w`,
            UserPolicyList: [
              {
                PolicyName: "read",
                PolicyDocument: {
                  Version: "2012-10-17",
                  Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: "*" }],
                },
              },
            ],
          },
        ],
      },
    });
    const result = authorize(unlisted, {
      principal: `arn:aws:iam::${A}:user/w`,
      action: "s3:GetObject",
      resource: "arn:aws:s3:::unlisted/k",
    });
    expect(result.decision).toBe("conditional");
    expect(result.conditions).toEqual([
      expect.objectContaining({
        operator: "ResourceOwner",
        key: "aws:ResourceAccount",
        values: [A],
      }),
    ]);
    const text = formatAuthorization(result);
    expect(text).toContain(`allowed only when: ResourceOwner aws:ResourceAccount ["${A}"]`);
    expect(text).toContain(`only if account ${A} owns the bucket`);
  });

  it("reads the bucket list: names or ARNs; other entries are errors, a second owner a warning", () => {
    const gaad = (account: string) => ({
      UserDetailList: [{ UserName: "x", Arn: `arn:aws:iam::${account}:user/x` }],
    });
    const listed = createAccountModel([
      {
        authorizationDetails: gaad(A),
        // A snapshot read from JSON may hold anything: a number is reported, not trusted.
        buckets: ["one", "arn:aws:s3:::two", "arn:aws:s3:::two/k", 3 as unknown as string],
      },
      { authorizationDetails: gaad("222222222222"), buckets: ["one"] },
    ]);
    expect(listed.bucketOwners.get("arn:aws:s3:::two")).toBe(A);
    expect(listed.issues.map((i) => [i.path, i.severity])).toEqual([
      ["accounts[0].buckets[2]", "error"],
      ["accounts[0].buckets[3]", "error"],
      ["accounts[1].buckets", "warning"],
    ]);
  });
});
