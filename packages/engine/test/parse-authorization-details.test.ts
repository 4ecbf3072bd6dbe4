import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  authorize,
  createAccountModel,
  parseAuthorizationDetails,
  parsePolicyDocument,
} from "../src/index.ts";

const reference = (name: string) =>
  JSON.parse(readFileSync(new URL(`./reference/gaad/${name}`, import.meta.url), "utf8")) as unknown;

describe("parseAuthorizationDetails", () => {
  it("reads the cloudsplaining sample account", () => {
    const { value, issues } = parseAuthorizationDetails(reference("cloudsplaining.example.json"));
    expect(value.users).toHaveLength(44);
    expect(value.groups).toHaveLength(5);
    expect(value.roles).toHaveLength(78);
    expect(value.managedPolicies.size).toBe(84);
    expect(value.accountId).toMatch(/^\d{12}$/);
    expect(issues.filter((i) => i.severity === "error")).toEqual([]);
  });

  it("reports AWS managed policies that are attached but absent", () => {
    const { issues } = parseAuthorizationDetails(reference("cloudsplaining.example_authz_v2.json"));
    const missing = issues.find((i) =>
      i.message.includes("arn:aws:iam::aws:policy/AdministratorAccess"),
    );
    expect(missing?.severity).toBe("warning");
    expect(missing?.message).toContain("AWS managed");
  });

  it("uses the default policy version and group membership in decisions", () => {
    const model = createAccountModel({
      authorizationDetails: reference("cloudsplaining.example-authz-details.json"),
    });
    const admins = [...model.principals.values()].filter(
      (p) =>
        authorize(model, { principal: p.arn, action: "iam:CreateUser", resource: "*" }).decision ===
        "allowed",
    );
    expect(admins.length).toBeGreaterThan(0);
    expect(admins.length).toBeLessThan(model.principals.size);
  });

  it("names where a malformed document is wrong", () => {
    const bad = {
      UserDetailList: [
        { UserName: "ok", Arn: "arn:aws:iam::111111111111:user/ok", UserPolicyList: [] },
        {
          UserName: "u",
          Arn: "arn:aws:iam::111111111111:user/u",
          UserPolicyList: [
            {
              PolicyName: "p",
              PolicyDocument: { Statement: [{ Effect: "Maybe", Action: "s3:*", Resource: "*" }] },
            },
          ],
          SomethingNew: { ignored: true },
        },
      ],
      RoleDetailList: "not a list",
    };
    const { value, issues } = parseAuthorizationDetails(bad);
    expect(value.users).toHaveLength(2);
    expect(issues.map((i) => i.path)).toContain(
      "UserDetailList[1].UserPolicyList[0].PolicyDocument.Statement[0].Effect",
    );
    expect(issues.map((i) => i.path)).toContain("$.RoleDetailList");
  });

  it("rejects text that is not JSON without throwing", () => {
    const { issues } = parseAuthorizationDetails("{not json");
    expect(issues[0]?.path).toBe("$");
  });
});

describe("parsePolicyDocument", () => {
  it("decodes URL-encoded documents", () => {
    const encoded = encodeURIComponent(
      JSON.stringify({ Statement: { Effect: "Allow", Action: "s3:*", Resource: "*" } }),
    );
    const { statements, issues } = parsePolicyDocument(encoded, "doc");
    expect(issues).toEqual([]);
    expect(statements[0]?.action).toEqual(["s3:*"]);
  });

  it("drops statements with both Action and NotAction", () => {
    const { statements, issues } = parsePolicyDocument(
      { Statement: [{ Effect: "Allow", Action: "a:b", NotAction: "c:d" }] },
      "d",
    );
    expect(statements).toEqual([]);
    expect(issues[0]?.path).toBe("d.Statement[0]");
  });

  it("keeps an invalid Deny as a Deny that may apply, trusting only its valid elements", () => {
    const { statements, issues } = parsePolicyDocument(
      {
        Statement: [
          { Sid: "A", Effect: "Deny", Action: "a:b", NotAction: "c:d", Resource: "arn:x" },
          {
            Effect: "Deny",
            Principal: "arn:aws:iam::111111111111:root",
            Action: "s3:GetObject",
            Resource: "*",
            Condition: { Bool: { "aws:SecureTransport": "false" }, StringLike: "oops" },
          },
          "not a statement",
        ],
      },
      "d",
    );
    expect(issues.map((i) => i.path)).toEqual([
      "d.Statement[0]",
      "d.Statement[1].Principal",
      "d.Statement[1].Condition.StringLike",
      "d.Statement[2]",
    ]);
    expect(statements).toMatchObject([
      {
        sid: "A",
        effect: "Deny",
        action: ["*"],
        resource: ["arn:x"],
        invalid: { elements: ["Action"] },
      },
      {
        effect: "Deny",
        principal: { any: true },
        action: ["s3:GetObject"],
        conditions: [{ operator: "Bool", key: "aws:SecureTransport" }],
        invalid: { elements: ["Principal", "Condition"] },
      },
      {
        index: 2,
        effect: "Deny",
        action: ["*"],
        resource: ["*"],
        invalid: { elements: ["Statement"] },
      },
    ]);
    expect(statements[0]?.notAction).toBeUndefined();
  });

  it("stands for a document it cannot read with one Deny that may apply", () => {
    const { statements, issues } = parsePolicyDocument("{not json", "d");
    expect(issues).toHaveLength(1);
    expect(statements).toMatchObject([{ effect: "Deny", invalid: { elements: ["Document"] } }]);
    expect(parsePolicyDocument(undefined, "d").statements).toEqual([]);
  });

  it("normalises Principal forms", () => {
    const { statements } = parsePolicyDocument(
      {
        Statement: [
          {
            Effect: "Allow",
            Action: "s3:*",
            Principal: { AWS: ["*", "111111111111"], Service: "ec2.amazonaws.com" },
          },
        ],
      },
      "d",
    );
    expect(statements[0]?.principal).toMatchObject({
      any: true,
      aws: ["111111111111"],
      service: ["ec2.amazonaws.com"],
    });
  });
});

describe("createAccountModel", () => {
  it("reports an unsupported partition and falls back to the ARN's", () => {
    const model = createAccountModel({
      authorizationDetails: {
        UserDetailList: [{ UserName: "u", Arn: "arn:aws-us-gov:iam::111111111111:user/u" }],
      },
      partition: "aws-cn" as never,
    });
    expect(model.issues.map((i) => i.path)).toContain("partition");
    expect(model.accounts.get("111111111111")?.partition).toBe("aws-us-gov");
  });

  it("prefixes issues with the snapshot index when several accounts are given", () => {
    const model = createAccountModel([
      {
        authorizationDetails: {
          UserDetailList: [{ UserName: "u", Arn: "arn:aws:iam::111111111111:user/u" }],
        },
      },
      { authorizationDetails: { UserDetailList: [{ Arn: "arn:aws:iam::222222222222:user/v" }] } },
    ]);
    expect(model.issues.map((i) => i.path)).toContain("accounts[1].UserDetailList[0].UserName");
  });
});

describe("createAccountModel on malformed inputs", () => {
  it("reports wrong shapes instead of throwing", () => {
    const model = createAccountModel([
      {
        authorizationDetails: {
          UserDetailList: [{ UserName: "u", Arn: "arn:aws:iam::111111111111:user/u" }],
        },
        resourcePolicies: "not an object" as never,
        organization: { serviceControlPolicies: [{ target: "r-root", policies: "nope" }] as never },
      },
      null as never,
    ]);
    const paths = model.issues.map((i) => i.path);
    expect(paths).toContain("accounts[0].resourcePolicies");
    expect(paths).toContain("accounts[0].organization.serviceControlPolicies[0]");
    expect(paths).toContain("accounts[1]");
    const decision = authorize(model, {
      principal: "arn:aws:iam::111111111111:user/u",
      action: "s3:GetObject",
      resource: "*",
    });
    expect(decision.stoppedBy).toBe("scp");
  });
});
