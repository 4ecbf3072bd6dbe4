import { readFileSync } from "node:fs";
import { listAwsActions } from "@sightline/capabilities";
import { describe, expect, it } from "vitest";
import {
  type AccountSnapshot,
  analyzeAccount,
  authorize,
  createAccountModel,
  formatAuthorization,
  type PrincipalAccessSummary,
} from "../src/index.ts";

const A = "111111111111";
const user = (name: string, policies: unknown[], extra: Record<string, unknown> = {}) => ({
  UserName: name,
  UserId: `AIDA${name.toUpperCase()}`,
  Arn: `arn:aws:iam::${A}:user/${name}`,
  UserPolicyList: policies.map((doc, i) => ({ PolicyName: `p${i}`, PolicyDocument: doc })),
  ...extra,
});
const doc = (...Statement: unknown[]) => ({ Version: "2012-10-17", Statement });
const allow = (Action: unknown, Resource: unknown = "*", extra = {}) => ({
  Effect: "Allow",
  Action,
  Resource,
  ...extra,
});
const deny = (Action: unknown, Resource: unknown = "*", extra = {}) => ({
  Effect: "Deny",
  Action,
  Resource,
  ...extra,
});

const snapshot: AccountSnapshot = {
  authorizationDetails: {
    UserDetailList: [
      user("admin", [doc(allow("*"))]),
      user("no-iam", [doc(allow("*"), deny("iam:*"))]),
      user("carved", [doc(allow("s3:*"), deny("s3:GetObject", "arn:aws:s3:::secret/*"))]),
      user("scoped", [doc(allow("s3:GetObject", "arn:aws:s3:::reports/*"))]),
      user("mfa", [
        doc(allow("ec2:*", "*", { Condition: { Bool: { "aws:MultiFactorAuthPresent": "true" } } })),
      ]),
      user("member", [], { GroupList: ["readers"] }),
      user("bounded", [doc(allow("*"))], {
        PermissionsBoundary: { PermissionsBoundaryArn: `arn:aws:iam::${A}:policy/S3Only` },
      }),
    ],
    GroupDetailList: [
      {
        GroupName: "readers",
        Arn: `arn:aws:iam::${A}:group/readers`,
        GroupPolicyList: [{ PolicyName: "r", PolicyDocument: doc(allow("dynamodb:GetItem")) }],
      },
    ],
    RoleDetailList: [
      {
        RoleName: "deploy",
        Arn: `arn:aws:iam::${A}:role/deploy`,
        AssumeRolePolicyDocument: doc({
          Effect: "Allow",
          Principal: { AWS: `arn:aws:iam::${A}:root` },
          Action: "sts:AssumeRole",
        }),
      },
    ],
    Policies: [
      {
        PolicyName: "S3Only",
        Arn: `arn:aws:iam::${A}:policy/S3Only`,
        PolicyVersionList: [{ IsDefaultVersion: true, Document: doc(allow("s3:*")) }],
      },
    ],
  },
  buckets: ["reports", "shared"],
  resourcePolicies: {
    "arn:aws:s3:::shared": doc(
      {
        Effect: "Allow",
        Principal: { AWS: "999999999999" },
        Action: "s3:GetObject",
        Resource: "arn:aws:s3:::shared/*",
      },
      {
        Effect: "Allow",
        Principal: "*",
        Action: "s3:ListBucket",
        Resource: "arn:aws:s3:::shared",
        Condition: { StringEquals: { "aws:PrincipalOrgID": "o-1" } },
      },
    ),
  },
};

const analysis = analyzeAccount(snapshot);
const rows = [...analysis.principalAccessSummaries()];
const rowsOf = (name: string) => rows.filter((r) => r.principalName === name);
const has = (
  list: PrincipalAccessSummary[],
  service: string,
  capability: string,
  resourceArn = "",
) =>
  list.find(
    (r) => r.service === service && r.capability === capability && r.resourceArn === resourceArn,
  );

describe("analyzeAccount", () => {
  it("flags IAM admins and lets a Deny on iam:* remove IAM capabilities", () => {
    expect(analysis.principals.find((p) => p.principalName === "admin")?.iamAdmin).toBe("yes");
    expect(analysis.principals.find((p) => p.principalName === "no-iam")?.iamAdmin).toBe("no");
    expect(rowsOf("no-iam").some((r) => r.service === "IAM")).toBe(false);
    expect(has(rowsOf("no-iam"), "S3", "read-data")).toBeDefined();
  });

  it("keeps service-wide access under a Deny on a specific resource, listing the exception", () => {
    const read = has(rowsOf("carved"), "S3", "read-data");
    expect(read?.exceptResources).toEqual(["arn:aws:s3:::secret/*"]);
    expect(
      analysis.accessOf(`arn:aws:iam::${A}:user/carved`, "s3:GetObject", "arn:aws:s3:::secret/*"),
    ).toBe("denied");
  });

  it("holds sts:GetCallerIdentity allowed for everyone, without a capability row for it", () => {
    expect(analysis.principals).not.toHaveLength(0);
    for (const p of analysis.principals) {
      expect(analysis.accessOf(p.principalArn, "sts:GetCallerIdentity", "*"), p.principalArn).toBe(
        "allowed",
      );
    }
    // "member" may only read DynamoDB items: no STS row, although it may call GetCallerIdentity.
    expect(rowsOf("member").some((r) => r.service === "STS")).toBe(false);
    expect(has(rowsOf("admin"), "STS", "read-data")).toBeDefined();
  });

  it("reports resource-scoped grants with their pattern", () => {
    expect(has(rowsOf("scoped"), "S3", "read-data")).toBeUndefined();
    expect(has(rowsOf("scoped"), "S3", "read-data", "arn:aws:s3:::reports/*")?.conditional).toBe(
      false,
    );
  });

  it("marks access that depends on request conditions as conditional", () => {
    expect(has(rowsOf("mfa"), "EC2", "administer-resource")?.conditional).toBe(true);
  });

  it("gives group members their group's access and honours boundaries", () => {
    expect(has(rowsOf("member"), "DynamoDB", "read-data")).toBeDefined();
    expect(rowsOf("bounded")).not.toHaveLength(0);
    expect(rowsOf("bounded").every((r) => r.service === "S3")).toBe(true);
  });

  it("lists outside principals and in-account principals on resources with policies", () => {
    const resourceRows = [...analysis.resourceAccessSummaries()];
    const shared = resourceRows.filter((r) => r.resourceArn === "arn:aws:s3:::shared");
    expect(
      shared.find((r) => r.principal === "999999999999" && r.capability === "read-data")
        ?.principalType,
    ).toBe("Account");
    expect(shared.find((r) => r.principal === "*")?.conditional).toBe(true);
    expect(
      shared.find((r) => r.principalType === "IAMUser" && r.principal.endsWith("/admin"))
        ?.inAccount,
    ).toBe(true);
    const deploy = resourceRows.filter((r) => r.resourceArn.endsWith(":role/deploy"));
    expect(deploy.map((r) => r.principal)).toContain(`arn:aws:iam::${A}:user/admin`);
    expect(deploy.map((r) => r.principal)).not.toContain(`arn:aws:iam::${A}:user/scoped`);
  });

  it("shares work between principals with the same policies", () => {
    const twins = analyzeAccount({
      authorizationDetails: {
        UserDetailList: [user("a", [], { GroupList: ["g"] }), user("b", [], { GroupList: ["g"] })],
        GroupDetailList: [
          {
            GroupName: "g",
            Arn: `arn:aws:iam::${A}:group/g`,
            GroupPolicyList: [{ PolicyName: "x", PolicyDocument: doc(allow("s3:*")) }],
          },
        ],
      },
    });
    expect(twins.stats.policySets).toBe(1);
    expect(twins.stats.principals).toBe(2);
  });

  it("agrees with authorize on every principal for sampled actions (reference account)", () => {
    const gaad = JSON.parse(
      readFileSync(
        new URL("./reference/gaad/cloudsplaining.example.json", import.meta.url),
        "utf8",
      ),
    );
    const model = createAccountModel({ authorizationDetails: gaad });
    const reference = analyzeAccount(model);
    const actions = [
      "s3:GetObject",
      "iam:PassRole",
      "iam:CreateAccessKey",
      "ec2:RunInstances",
      "kms:Decrypt",
      "sts:AssumeRole",
      "lambda:InvokeFunction",
      "ssm:GetParameter",
    ];
    let checked = 0;
    for (const p of model.principals.values()) {
      for (const action of actions) {
        for (const resource of [
          "*",
          "arn:aws:s3:::aws-quick-setup-config-recording-200611803367-1clff",
        ]) {
          const decision = authorize(model, { principal: p.arn, action, resource }).decision;
          const expected =
            decision === "allowed" || decision === "conditional" ? decision : "denied";
          expect(
            reference.accessOf(p.arn, action, resource),
            `${p.arn} ${action} ${resource}`,
          ).toBe(expected);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe("analyzeAccount with assumed request context", () => {
  const tls = {
    authorizationDetails: { UserDetailList: [user("reader", [doc(allow("s3:GetObject"))])] },
    resourcePolicies: {
      "arn:aws:s3:::logs": doc({
        Effect: "Deny",
        Principal: "*",
        Action: "s3:*",
        Resource: "arn:aws:s3:::logs/*",
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      }),
    },
  };
  const rowFor = (analysis: ReturnType<typeof analyzeAccount>) =>
    [...analysis.resourceAccessSummaries()].find(
      (r) => r.principal.endsWith("/reader") && r.capability === "read-data",
    );

  it("is conditional on an undecided key by default and decided when the key is assumed", () => {
    expect(rowFor(analyzeAccount(tls))?.conditional).toBe(true);
    const assumed = analyzeAccount(tls, { context: { "aws:SecureTransport": true } });
    expect(rowFor(assumed)?.conditional).toBe(false);
    const model = createAccountModel(tls);
    const decision = authorize(model, {
      principal: `arn:aws:iam::${A}:user/reader`,
      action: "s3:GetObject",
      resource: "arn:aws:s3:::logs/x",
      context: { "aws:SecureTransport": true },
    }).decision;
    expect(decision).toBe("allowed");
  });
});

describe("analyzeAccount across accounts", () => {
  const B = "222222222222";
  const snapshots: AccountSnapshot[] = [
    {
      authorizationDetails: {
        UserDetailList: [
          user("dev", [doc(allow("sts:AssumeRole", `arn:aws:iam::${B}:role/*`))]),
          user("idle", []),
        ],
      },
    },
    {
      authorizationDetails: {
        RoleDetailList: [
          {
            RoleName: "shared",
            Arn: `arn:aws:iam::${B}:role/shared`,
            AssumeRolePolicyDocument: doc({
              Effect: "Allow",
              Principal: { AWS: `arn:aws:iam::${A}:root` },
              Action: "sts:AssumeRole",
            }),
          },
        ],
      },
    },
  ];

  it("lists principals of another analysed account that can use a resource", () => {
    const rows = [...analyzeAccount(snapshots).resourceAccessSummaries()].filter((r) =>
      r.resourceArn.endsWith(":role/shared"),
    );
    const dev = rows.find((r) => r.principal === `arn:aws:iam::${A}:user/dev`);
    expect(dev).toMatchObject({ inAccount: false, conditional: false, service: "STS" });
    expect(rows.some((r) => r.principal.endsWith("/idle"))).toBe(false);
  });

  it("limits principals and resources to the accounts asked for", () => {
    const onlyB = analyzeAccount(snapshots, { accounts: [B] });
    expect(onlyB.principals.map((p) => p.principalName)).toEqual(["shared"]);
    expect(onlyB.resources.map((r) => r.resourceArn)).toEqual([`arn:aws:iam::${B}:role/shared`]);
    // Principals of every analysed account still count for who can use B's resources.
    expect([...onlyB.resourceAccessSummaries()].map((r) => r.principal)).toContain(
      `arn:aws:iam::${A}:user/dev`,
    );
  });
});

describe("IAM admin flag", () => {
  it("counts administer-resource on a pattern covering every IAM resource of the account", () => {
    const analysis = analyzeAccount({
      authorizationDetails: {
        UserDetailList: [
          user("account-wide", [doc(allow("iam:*", `arn:aws:iam::${A}:*`))]),
          user("one-role", [doc(allow("iam:*", `arn:aws:iam::${A}:role/app`))]),
        ],
      },
    });
    const flag = (name: string) =>
      analysis.principals.find((p) => p.principalName === name)?.iamAdmin;
    expect(flag("account-wide")).toBe("yes");
    expect(flag("one-role")).toBe("no");
  });
});

describe("policies that depend on the principal", () => {
  const users = Array.from({ length: 6 }, (_, i) =>
    user(i < 2 ? `admin-${i}` : `dev-${i}`, [doc(allow("*"))], {
      Tags: i % 2 === 0 ? [{ Key: "team", Value: "red" }] : [],
    }),
  );
  const snapshot: AccountSnapshot = {
    authorizationDetails: { UserDetailList: users },
    organization: {
      serviceControlPolicies: [
        {
          target: "r-root",
          policies: [
            {
              document: doc(
                allow("*"),
                deny("iam:*", "*", {
                  Condition: {
                    ArnNotLike: { "aws:PrincipalArn": `arn:aws:iam::${A}:user/admin-*` },
                  },
                }),
              ),
            },
          ],
        },
      ],
    },
  };

  it("groups principals by how the policy treats them and agrees with authorize", () => {
    const model = createAccountModel(snapshot);
    const analysis = analyzeAccount(model);
    expect(analysis.stats.policySets).toBe(2);
    for (const p of model.principals.values()) {
      const want = authorize(model, {
        principal: p.arn,
        action: "iam:CreateUser",
        resource: "*",
      }).decision;
      expect(analysis.accessOf(p.arn, "iam:CreateUser", "*")).toBe(
        want === "allowed" ? "allowed" : "denied",
      );
      expect(analysis.principals.find((r) => r.principalArn === p.arn)?.iamAdmin).toBe(
        p.name.startsWith("admin") ? "yes" : "no",
      );
    }
  });
});

describe("malformed Deny statements", () => {
  // IAM would reject these statements: the engine keeps each as a Deny that may apply.
  const snapshot: AccountSnapshot = {
    authorizationDetails: {
      UserDetailList: [
        user("clean", [doc(allow("*"))]),
        user("guarded", [doc(allow("*")), doc(deny({ iam: "*" }))]),
        user("cond", [
          doc(
            allow("s3:*"),
            deny("s3:DeleteObject", "*", { Condition: { StringEquals: { "aws:username": {} } } }),
          ),
        ]),
        user("sloppy", [doc(allow("s3:*"), { Effect: "Allow", Action: 7, Resource: "*" })]),
      ],
    },
    resourcePolicies: {
      "arn:aws:s3:::vault": doc({
        Effect: "Deny",
        Principal: `arn:aws:iam::${A}:user/cond`,
        Action: "s3:*",
        Resource: ["arn:aws:s3:::vault", "arn:aws:s3:::vault/*"],
      }),
    },
  };
  const model = createAccountModel(snapshot);
  const analysis = analyzeAccount(model);
  const rows = [...analysis.principalAccessSummaries()];
  const rowsOf = (name: string) => rows.filter((r) => r.principalName === name);
  const arn = (name: string) => `arn:aws:iam::${A}:user/${name}`;

  it("reports every invalid statement", () => {
    const paths = model.issues.filter((i) => i.severity === "error").map((i) => i.path);
    expect(paths).toEqual([
      "UserDetailList[1].UserPolicyList[1].PolicyDocument.Statement[0].Action",
      "UserDetailList[1].UserPolicyList[1].PolicyDocument.Statement[0]",
      "UserDetailList[2].UserPolicyList[0].PolicyDocument.Statement[1].Condition.StringEquals.aws:username",
      "UserDetailList[3].UserPolicyList[0].PolicyDocument.Statement[1].Action",
      "UserDetailList[3].UserPolicyList[0].PolicyDocument.Statement[1]",
      'resourcePolicies["arn:aws:s3:::vault"].Statement[0].Principal',
    ]);
  });

  it("makes every row a malformed Deny could affect conditional, not unconditional", () => {
    expect(rowsOf("clean").length).toBeGreaterThan(0);
    expect(rowsOf("clean").every((r) => !r.conditional)).toBe(true);
    const guarded = rowsOf("guarded");
    expect(guarded.length).toBe(rowsOf("clean").length);
    expect(guarded.every((r) => r.conditional)).toBe(true);
    expect(has(guarded, "S3", "read-data")?.conditional).toBe(true);
    expect(analysis.principals.find((p) => p.principalName === "guarded")?.iamAdmin).toBe(
      "conditional",
    );
    expect(analysis.principals.find((p) => p.principalName === "clean")?.iamAdmin).toBe("yes");
  });

  it("keeps a Deny with a malformed Condition on its own actions", () => {
    expect(analysis.accessOf(arn("cond"), "s3:DeleteObject", "*")).toBe("conditional");
    expect(analysis.accessOf(arn("cond"), "s3:GetObject", "*")).toBe("allowed");
  });

  it("drops an invalid Allow without making anything conditional", () => {
    expect(rowsOf("sloppy")).not.toHaveLength(0);
    expect(rowsOf("sloppy").every((r) => r.service === "S3" && !r.conditional)).toBe(true);
  });

  it("makes a bare-string principal Deny in a bucket policy conditional for every caller", () => {
    const vault = [...analysis.resourceAccessSummaries()].filter(
      (r) => r.resourceArn === "arn:aws:s3:::vault" && r.capability === "read-data",
    );
    for (const name of ["clean", "guarded", "cond", "sloppy"]) {
      expect(vault.find((r) => r.principal === arn(name))?.conditional, name).toBe(true);
    }
  });

  it("agrees with authorize", () => {
    const actions = ["s3:GetObject", "s3:DeleteObject", "iam:CreateUser", "ec2:RunInstances"];
    const resources = ["*", "arn:aws:s3:::vault/k", "arn:aws:s3:::other/k"];
    expect(model.principals.size).toBeGreaterThan(0);
    for (const p of model.principals.values()) {
      for (const action of actions) {
        for (const resource of resources) {
          const decision = authorize(model, { principal: p.arn, action, resource }).decision;
          const expected =
            decision === "allowed" || decision === "conditional" ? decision : "denied";
          expect(analysis.accessOf(p.arn, action, resource), `${p.arn} ${action} ${resource}`).toBe(
            expected,
          );
        }
      }
    }
  });
});

describe("resources AWS does not let customers change (issue 10)", () => {
  const SSO = `arn:aws:iam::${A}:role/aws-reserved/sso.amazonaws.com/*`;
  const SLR = `arn:aws:iam::${A}:role/aws-service-role/*`;
  const MANAGED = "arn:aws:iam::aws:policy/*";
  const ALIASES = `arn:aws:kms:us-east-1:${A}:alias/aws/*`;
  const model = createAccountModel({
    authorizationDetails: {
      UserDetailList: [
        user("policy-editor", [
          doc(allow(["iam:DeletePolicy", "iam:CreatePolicyVersion", "iam:TagPolicy"], MANAGED)),
        ]),
        user("sso-editor", [
          doc(allow(["iam:PutRolePolicy", "iam:AttachRolePolicy", "iam:DeleteRole"], SSO)),
        ]),
        user("sso-all", [doc(allow("iam:*", SSO))]),
        user("slr-all", [doc(allow("iam:*", SLR))]),
        user("slr-editor", [doc(allow(["iam:PutRolePolicy", "iam:UpdateAssumeRolePolicy"], SLR))]),
        user("alias-editor", [doc(allow("kms:*Alias", ALIASES))]),
        user("protected-only", [doc(allow("iam:*", [MANAGED, SSO, SLR]))]),
      ],
    },
  });
  const analysis = analyzeAccount(model);
  const rows = [...analysis.principalAccessSummaries()];
  const capabilitiesOf = (name: string) =>
    rows
      .filter((r) => r.principalName === name)
      .map((r) => `${r.capability} ${r.resourceArn}`)
      .sort();

  it("reports no capability held only through refused actions", () => {
    expect(capabilitiesOf("policy-editor")).toEqual([]);
    expect(capabilitiesOf("sso-editor")).toEqual([]);
    expect(capabilitiesOf("slr-editor")).toEqual([]);
    expect(capabilitiesOf("alias-editor")).not.toContain(`administer-resource ${ALIASES}`);
  });

  it("keeps a capability that an allowed action still gives", () => {
    // iam:DeleteServiceLinkedRole and UpdateRoleDescription stay allowed on service-linked roles.
    expect(capabilitiesOf("slr-all")).toContain(`administer-resource ${SLR}`);
    expect(capabilitiesOf("sso-all")).toContain(`read-config ${SSO}`);
    // iam:PassRole is not a change to the role: it stays allowed.
    expect(capabilitiesOf("sso-all")).toContain(`administer-resource ${SSO}`);
  });

  it("does not make an IAM admin from actions on protected resources", () => {
    for (const name of ["policy-editor", "sso-all", "slr-all", "protected-only"])
      expect(analysis.principals.find((p) => p.principalName === name)?.iamAdmin, name).toBe("no");
  });

  it("answers accessOf as authorize does", () => {
    const requests: [string, string, string][] = [
      ["policy-editor", "iam:DeletePolicy", "arn:aws:iam::aws:policy/AdministratorAccess"],
      ["sso-all", "iam:PutRolePolicy", SSO.replace("*", "eu-west-1/AWSReservedSSO_Admin_1")],
      ["sso-all", "iam:GetRole", SSO.replace("*", "eu-west-1/AWSReservedSSO_Admin_1")],
      ["slr-all", "iam:DeleteRole", SLR.replace("*", "ecs.amazonaws.com/AWSServiceRoleForECS")],
      [
        "slr-all",
        "iam:DeleteServiceLinkedRole",
        SLR.replace("*", "ecs.amazonaws.com/AWSServiceRoleForECS"),
      ],
      ["alias-editor", "kms:DeleteAlias", ALIASES.replace("*", "s3")],
    ];
    for (const [name, action, resource] of requests) {
      const principal = `arn:aws:iam::${A}:user/${name}`;
      const decision = authorize(model, { principal, action, resource }).decision;
      const want = decision === "allowed" || decision === "conditional" ? decision : "denied";
      expect(analysis.accessOf(principal, action, resource), `${name} ${action}`).toBe(want);
    }
    expect(
      analysis.accessOf(
        `arn:aws:iam::${A}:user/slr-all`,
        "iam:DeleteServiceLinkedRole",
        SLR.replace("*", "ecs.amazonaws.com/AWSServiceRoleForECS"),
      ),
    ).toBe("allowed");
    expect(
      analysis.accessOf(
        `arn:aws:iam::${A}:user/sso-all`,
        "iam:PutRolePolicy",
        SSO.replace("*", "eu-west-1/AWSReservedSSO_Admin_1"),
      ),
    ).toBe("denied");
  });
});

describe("AWS managed KMS keys (issue 10)", () => {
  const MANAGED_KEY = `arn:aws:kms:us-east-1:${A}:key/00000000-0000-0000-0000-00000000aws1`;
  const CUSTOMER_KEY = `arn:aws:kms:us-east-1:${A}:key/00000000-0000-0000-0000-00000000cus1`;
  const keyPolicy = doc({
    Sid: "Root",
    Effect: "Allow",
    Principal: { AWS: `arn:aws:iam::${A}:root` },
    Action: "kms:*",
    Resource: "*",
  });
  const snapshotWith = (awsManagedKeys: string[]): AccountSnapshot => ({
    authorizationDetails: {
      UserDetailList: [
        user("key-admin", [doc(allow(["kms:ScheduleKeyDeletion", "kms:PutKeyPolicy"]))]),
        user("admin", [doc(allow("*"))]),
      ],
    },
    resourcePolicies: { [MANAGED_KEY]: keyPolicy, [CUSTOMER_KEY]: keyPolicy },
    awsManagedKeys,
  });
  const model = createAccountModel(snapshotWith([MANAGED_KEY]));
  const analysis = analyzeAccount(model);
  const keyAdmin = `arn:aws:iam::${A}:user/key-admin`;

  it("refuses changes to an AWS managed key in authorize and accessOf, not to a customer key", () => {
    for (const action of ["kms:ScheduleKeyDeletion", "kms:PutKeyPolicy"]) {
      expect(
        authorize(model, { principal: keyAdmin, action, resource: MANAGED_KEY }).decision,
      ).toBe("implicit-deny");
      expect(analysis.accessOf(keyAdmin, action, MANAGED_KEY)).toBe("denied");
      expect(analysis.accessOf(keyAdmin, action, CUSTOMER_KEY)).toBe("allowed");
    }
  });

  it("reports no capability on the AWS managed key that only refused actions give", () => {
    const rows = [...analysis.resourceAccessSummaries()].filter((r) => r.principal === keyAdmin);
    expect(rows.filter((r) => r.resourceArn === MANAGED_KEY)).toEqual([]);
    expect(rows.filter((r) => r.resourceArn === CUSTOMER_KEY).length).toBeGreaterThan(0);
    // Without the listing, the same key is an ordinary key.
    const unlisted = analyzeAccount(snapshotWith([]));
    expect(unlisted.accessOf(keyAdmin, "kms:ScheduleKeyDeletion", MANAGED_KEY)).toBe("allowed");
  });

  it("agrees with authorize on every KMS action on both keys", () => {
    const actions = listAwsActions()
      .filter((a) => a.prefix === "kms")
      .map((a) => a.action);
    expect(actions.length).toBeGreaterThan(0);
    for (const principal of [keyAdmin, `arn:aws:iam::${A}:user/admin`])
      for (const resource of [MANAGED_KEY, CUSTOMER_KEY])
        for (const action of actions) {
          const decision = authorize(model, { principal, action, resource }).decision;
          const want = decision === "allowed" || decision === "conditional" ? decision : "denied";
          expect(analysis.accessOf(principal, action, resource), `${action} ${resource}`).toBe(
            want,
          );
        }
  });

  it("rejects a listing that is not a key ARN of the account, naming the field", () => {
    const bad = createAccountModel({
      ...snapshotWith([]),
      awsManagedKeys: ["alias/aws/s3", `arn:aws:kms:us-east-1:222222222222:key/x`],
    });
    const messages = bad.issues.map((i) => `${i.path}: ${i.message}`);
    expect(messages).toEqual([
      "awsManagedKeys[0]: must be a KMS key ARN (arn:…:kms:<region>:<account>:key/<id>)",
      `awsManagedKeys[1]: must be a key of account ${A}`,
    ]);
    expect(bad.awsManagedKeys.size).toBe(0);
  });
});

describe("a bucket whose owner the snapshots do not name", () => {
  const gaad = {
    UserDetailList: [user("reader", [doc(allow("s3:GetObject", "arn:aws:s3:::reports/*"))])],
  };
  const reader = `arn:aws:iam::${A}:user/reader`;
  const rowOf = (snapshot: AccountSnapshot) =>
    [...analyzeAccount(snapshot).principalAccessSummaries()].find(
      (r) => r.principalName === "reader" && r.resourceArn === "arn:aws:s3:::reports/*",
    );

  it("makes the identity grant conditional on ownership, as authorize does", () => {
    const snapshot = { authorizationDetails: gaad };
    expect(rowOf(snapshot)?.conditional).toBe(true);
    const request = {
      principal: reader,
      action: "s3:GetObject",
      resource: "arn:aws:s3:::reports/x",
    };
    expect(analyzeAccount(snapshot).accessOf(reader, request.action, request.resource)).toBe(
      "conditional",
    );
    expect(authorize(createAccountModel(snapshot), request).decision).toBe("conditional");
  });

  it("is allowed once the account's bucket list names the bucket", () => {
    const snapshot = { authorizationDetails: gaad, buckets: ["reports"] };
    expect(rowOf(snapshot)?.conditional).toBe(false);
    expect(
      analyzeAccount(snapshot).accessOf(reader, "s3:GetObject", "arn:aws:s3:::reports/x"),
    ).toBe("allowed");
  });
});

describe("a NotResource whose policy variable has no value", () => {
  // IAM User Guide, 'IAM policy elements: Variables and tags': a variable AWS cannot resolve
  // *might* make the whole statement invalid. A role has no aws:username: the Deny below may
  // apply to everything but the role itself, or to nothing. Both readings are possible, so
  // the rows it could change are conditional, for a Deny as for an Allow.
  const KEY = `arn:aws:kms:us-east-1:${A}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable
  const HOME = "arn:aws:s3:::bucket-a/home/${aws:username}/*";
  const role = (name: string, policy: unknown) => ({
    RoleName: name,
    RoleId: `AROA${name.toUpperCase()}`,
    Arn: `arn:aws:iam::${A}:role/${name}`,
    AssumeRolePolicyDocument: doc({
      Effect: "Allow",
      Principal: { AWS: A },
      Action: "sts:AssumeRole",
    }),
    RolePolicyList: [{ PolicyName: "p", PolicyDocument: policy }],
  });
  const guard = {
    Sid: "Guard",
    Effect: "Deny",
    NotAction: ["s3:DeleteObject", "iam:PassRole", "dynamodb:PutItem"],
    NotResource: [HOME, `arn:aws:iam::${A}:role/admin`],
  };
  const snapshot: AccountSnapshot = {
    authorizationDetails: {
      UserDetailList: [user("alice", [doc(allow("kms:*"), guard)])],
      RoleDetailList: [
        role("admin", doc(allow("kms:*"), guard)),
        role("reader", doc({ Effect: "Allow", Action: "kms:*", NotResource: guard.NotResource })),
      ],
    },
    resourcePolicies: {
      [KEY]: doc({
        Sid: "EnableIAM",
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${A}:root` },
        Action: "kms:*",
        Resource: "*",
      }),
    },
  };
  const model = createAccountModel(snapshot);
  const analysis = analyzeAccount(model);
  const admin = `arn:aws:iam::${A}:role/admin`;
  const reader = `arn:aws:iam::${A}:role/reader`;
  const alice = `arn:aws:iam::${A}:user/alice`;
  const kmsRows = (arn: string) =>
    [...analysis.principalAccessSummaries()].filter(
      (r) => r.principalArn === arn && r.service === "KMS",
    );

  it("answers conditional where the Deny may apply, naming the statement and the variable", () => {
    const result = authorize(model, { principal: admin, action: "kms:Decrypt", resource: KEY });
    expect(result.decision).toBe("conditional");
    expect(result.conditions).toEqual([
      {
        policyId: `${admin}#inline#p`,
        policyType: "identity",
        statement: "Guard",
        operator: "UnresolvedVariable",
        key: "aws:username",
        values: [HOME],
      },
    ]);
    const text = formatAuthorization(result);
    expect(text).toContain("allowed only when: NOT (UnresolvedVariable aws:username");
    expect(text).toContain("note: Guard of");
    // For a user the variable resolves, and the Deny applies.
    expect(
      authorize(model, { principal: alice, action: "kms:Decrypt", resource: KEY }).decision,
    ).toBe("explicit-deny");
  });

  it("marks the role's rows conditional, for a Deny and an Allow alike", () => {
    expect(kmsRows(admin).length).toBeGreaterThan(0);
    expect(kmsRows(admin).every((r) => r.conditional)).toBe(true);
    expect(kmsRows(reader).length).toBeGreaterThan(0);
    expect(kmsRows(reader).every((r) => r.conditional)).toBe(true);
    expect(kmsRows(alice)).toEqual([]);
    const onKey = [...analysis.resourceAccessSummaries()].filter((r) => r.resourceArn === KEY);
    for (const arn of [admin, reader]) {
      const rows = onKey.filter((r) => r.principal === arn);
      expect(rows.length, arn).toBeGreaterThan(0);
      expect(rows.every((r) => r.conditional)).toBe(true);
    }
    expect(onKey.filter((r) => r.principal === alice)).toEqual([]);
  });

  it("agrees with authorize", () => {
    const actions = ["kms:Decrypt", "kms:PutKeyPolicy", "iam:PassRole", "s3:DeleteObject"];
    const resources = ["*", KEY, admin, "arn:aws:s3:::bucket-a/home/x/k"];
    for (const p of model.principals.values())
      for (const action of actions)
        for (const resource of resources) {
          const decision = authorize(model, { principal: p.arn, action, resource }).decision;
          const want = decision === "allowed" || decision === "conditional" ? decision : "denied";
          expect(analysis.accessOf(p.arn, action, resource), `${p.arn} ${action} ${resource}`).toBe(
            want,
          );
        }
  });
});

describe("a KMS key whose key policy could not be read", () => {
  // AWS KMS Developer Guide, 'Key policies in AWS KMS': the key policy alone decides whether
  // IAM policies count. An unread one is not assumed to be the default ('Default key policy',
  // 'Allows access to the AWS account and enables IAM policies'): the key's answers are
  // conditional, for holders IAM allows and for the others alike.
  const UNREAD = `arn:aws:kms:us-east-1:${A}:key/00000000-0000-0000-0000-0000000unread`;
  const OTHER = `arn:aws:kms:us-east-1:${A}:key/00000000-0000-0000-0000-0000000absent`;
  const snapshot: AccountSnapshot = {
    authorizationDetails: {
      UserDetailList: [
        user("will", [doc(allow("kms:Decrypt", [UNREAD, OTHER]))]),
        user("xen", [doc(allow("s3:GetObject"))]),
        user("nod", [doc(allow("kms:*"), deny("kms:*"))]),
      ],
    },
    unreadableKeyPolicies: [UNREAD],
  };
  const model = createAccountModel(snapshot);
  const analysis = analyzeAccount(model);
  const arn = (name: string) => `arn:aws:iam::${A}:user/${name}`;

  it("answers conditional with the reason, where the default key policy answered", () => {
    const result = authorize(model, {
      principal: arn("will"),
      action: "kms:Decrypt",
      resource: UNREAD,
    });
    expect(result.decision).toBe("conditional");
    expect(result.conditions.map((c) => `${c.operator} ${c.key} ${c.policyId}`)).toEqual([
      `KeyPolicyUnread caller ${UNREAD}`,
      `KeyPolicyUnread account ${UNREAD}`,
    ]);
    expect(formatAuthorization(result)).toContain(
      `note: the key policy of ${UNREAD} could not be read`,
    );
    expect(analysis.accessOf(arn("will"), "kms:Decrypt", UNREAD)).toBe("conditional");
    expect(analysis.accessOf(arn("xen"), "kms:Decrypt", UNREAD)).toBe("conditional");
    expect(analysis.accessOf(arn("nod"), "kms:Decrypt", UNREAD)).toBe("denied");
    // A key merely absent from the snapshot keeps the default key policy.
    expect(analysis.accessOf(arn("will"), "kms:Decrypt", OTHER)).toBe("allowed");
    expect(analysis.accessOf(arn("xen"), "kms:Decrypt", OTHER)).toBe("denied");
  });

  it("reports the key as a resource whose holders are conditional", () => {
    expect(analysis.resources.find((r) => r.resourceArn === UNREAD)).toEqual({
      resourceArn: UNREAD,
      resourceType: "KMSKey",
      service: "KMS",
      accountId: A,
      allowsAnyPrincipal: false,
    });
    const holders = [...analysis.resourceAccessSummaries()].filter((r) => r.resourceArn === UNREAD);
    expect(holders.some((r) => r.principal === arn("will"))).toBe(true);
    expect(holders.some((r) => r.principal === arn("xen"))).toBe(true);
    expect(holders.some((r) => r.principal === arn("nod"))).toBe(false);
    expect(holders.every((r) => r.conditional)).toBe(true);
    const willRows = [...analysis.principalAccessSummaries()].filter(
      (r) => r.principalName === "will" && r.resourceArn === UNREAD,
    );
    expect(willRows.length).toBeGreaterThan(0);
    expect(willRows.every((r) => r.conditional)).toBe(true);
  });

  it("agrees with authorize on every KMS action", () => {
    const actions = listAwsActions()
      .filter((a) => a.prefix === "kms")
      .map((a) => a.action);
    for (const p of model.principals.values())
      for (const resource of [UNREAD, OTHER])
        for (const action of actions) {
          const decision = authorize(model, { principal: p.arn, action, resource }).decision;
          const want = decision === "allowed" || decision === "conditional" ? decision : "denied";
          expect(analysis.accessOf(p.arn, action, resource), `${p.arn} ${action} ${resource}`).toBe(
            want,
          );
        }
  });
});
