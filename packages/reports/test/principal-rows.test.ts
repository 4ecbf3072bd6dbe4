import type { PrincipalRow } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { buildPrincipalRow, createReportContext, type PrincipalMetadata } from "../src/index.ts";
import { ANALYSIS_TIME } from "./sample-rows.ts";

const role: PrincipalRow = {
  principalArn: "arn:aws:iam::111122223333:role/ops/deployer",
  principalName: "deployer",
  principalType: "IAMRole",
  accountId: "111122223333",
  iamAdmin: "conditional",
  groupArns: [],
  permissionsBoundaryArn: "arn:aws:iam::111122223333:policy/boundary",
  tags: { "business-unit": "Payments", ENVIRONMENT: "prod", UsedBy: "ci", Other: "x" },
  iamAdminGrantedBy: [
    {
      policyType: "managed",
      policyArn: "arn:aws:iam::aws:policy/IAMFullAccess",
      policyName: "IAMFullAccess",
      sids: ["#0"],
    },
  ],
  iamAdminActions: ["iam:AttachRolePolicy", "iam:PutUserPolicy"],
};
const user: PrincipalRow = {
  principalArn: "arn:aws:iam::111122223333:user/alice",
  principalName: "alice",
  principalType: "IAMUser",
  accountId: "111122223333",
  iamAdmin: "no",
  groupArns: ["arn:aws:iam::111122223333:group/readers"],
  tags: {},
};
const at = (day: number) => new Date(Date.UTC(2026, 2, day, 12));

function build(row: PrincipalRow, metadata?: PrincipalMetadata) {
  const context = createReportContext({
    analysisTime: ANALYSIS_TIME,
    principals: [role, user],
    principalMetadata: new Map(metadata ? [[row.principalArn, metadata]] : []),
  });
  return buildPrincipalRow(row, context);
}

describe("buildPrincipalRow", () => {
  it("fills a role's columns from the engine row, its last use and its tags", () => {
    expect(build(role, { lastUsed: at(3) })).toEqual({
      analysis_time: ANALYSIS_TIME,
      principal_name: "deployer",
      principal_arn: "arn:aws:iam::111122223333:role/ops/deployer",
      principal_type: "IAMRole",
      principal_is_iam_admin: true,
      principal_last_used: at(3),
      principal_tag_business_unit: "Payments",
      principal_tag_environment: "prod",
      principal_tag_used_by: "ci",
      principal_tags: role.tags,
      password_last_used: undefined,
      password_last_rotated: undefined,
      password_state: "",
      access_key_1_last_used: undefined,
      access_key_1_last_rotated: undefined,
      access_key_1_state: "",
      access_key_2_last_used: undefined,
      access_key_2_last_rotated: undefined,
      access_key_2_state: "",
      principal_account_id: "111122223333",
      principal_is_iam_admin_conditional: true,
      group_arns: [],
      permissions_boundary_arn: "arn:aws:iam::111122223333:policy/boundary",
      iam_admin_path: [],
      iam_admin_granted_by: role.iamAdminGrantedBy,
      iam_admin_actions: ["iam:AttachRolePolicy", "iam:PutUserPolicy"],
    });
  });

  it("writes empty lists for a principal that is no IAM admin (or an engine row without them)", () => {
    expect(build(user)).toMatchObject({ iam_admin_granted_by: [], iam_admin_actions: [] });
  });

  it("names the chain by which a principal that is not an admin becomes one", () => {
    const chain = [user.principalArn, role.principalArn];
    expect(build(user, { iamAdminPath: chain }).iam_admin_path).toEqual(chain);
  });

  it("fills a user's credentials with k9's states, and its last use from them", () => {
    const row = build(user, {
      credentials: {
        password: { lastUsed: at(1), lastRotated: at(0) },
        accessKey1: { active: true, lastUsed: at(4), lastRotated: at(2) },
        accessKey2: { active: false, lastRotated: at(2) },
      },
    });
    expect(row).toMatchObject({
      principal_is_iam_admin: false,
      principal_is_iam_admin_conditional: false,
      principal_last_used: at(4),
      password_last_used: at(1),
      password_last_rotated: at(0),
      password_state: "Active",
      access_key_1_last_used: at(4),
      access_key_1_last_rotated: at(2),
      access_key_1_state: "Active",
      access_key_2_last_used: undefined,
      access_key_2_state: "Inactive",
      group_arns: ["arn:aws:iam::111122223333:group/readers"],
      permissions_boundary_arn: "",
      principal_tag_business_unit: "",
    });
  });

  it("marks a disabled password Inactive, its last use kept", () => {
    const row = build(user, { credentials: { password: { active: false, lastUsed: at(1) } } });
    expect(row).toMatchObject({ password_state: "Inactive", password_last_used: at(1) });
    expect(row.principal_last_used).toEqual(at(1));
  });

  it("leaves the credential columns blank for a user without password or keys", () => {
    const row = build(user, { credentials: {} });
    expect([row.password_state, row.access_key_1_state, row.access_key_2_state]).toEqual([
      "",
      "",
      "",
    ]);
    expect(row.principal_last_used).toBeUndefined();
  });
});
