import { describe, expect, it } from "vitest";
import { findAwsAction, listAwsActions } from "./aws-catalogue.ts";
import {
  buildDenyIamAdminBoundaryPolicy,
  buildDenyIamAdminIdentityPolicy,
  listIamAdministerActions,
} from "./deny-iam-admin.ts";
import { MANAGED_POLICY_MAX_CHARS, measurePolicySize } from "./policy-document.ts";
import { validateIdentityPolicy } from "./validate-policy-document.ts";

const REQUIRED = [
  "iam:PassRole",
  "iam:CreateUser",
  "iam:AttachRolePolicy",
  "iam:PutRolePolicy",
  "iam:UpdateAssumeRolePolicy",
  "iam:CreateAccessKey",
];

describe("deny-IAM-admin permissions boundary (endpoint 4)", () => {
  const doc = buildDenyIamAdminBoundaryPolicy();

  it("has the documented shape: Version and exactly two statements", () => {
    expect(doc.Version).toBe("2012-10-17");
    expect(doc.Statement.map((s) => [s.Sid, s.Effect, s.Resource])).toEqual([
      ["DenyIAMAdministerResource", "Deny", "*"],
      ["AllowPermissionsGrantedByOtherPolicies", "Allow", "*"],
    ]);
    expect(doc.Statement[1]?.Action).toBe("*");
  });

  it("is valid policy grammar within the managed-policy size limit", () => {
    expect(validateIdentityPolicy(doc)).toEqual([]);
    expect(measurePolicySize(doc)).toBeLessThanOrEqual(MANAGED_POLICY_MAX_CHARS);
  });

  it("denies more than 95 IAM actions, including the privilege-escalation ones", () => {
    const actions = doc.Statement[0]?.Action as string[];
    expect(actions.length).toBeGreaterThan(95);
    expect(actions).toEqual(expect.arrayContaining(REQUIRED));
  });

  it("denies exactly the IAM actions classified administer-resource, with no duplicates", () => {
    const actions = doc.Statement[0]?.Action as string[];
    const expected = listAwsActions()
      .filter((a) => a.prefix === "iam" && a.capabilities.includes("administer-resource"))
      .map((a) => a.action);
    expect(new Set(actions)).toEqual(new Set(expected));
    expect(new Set(actions.map((a) => a.toLowerCase())).size).toBe(actions.length);
    for (const action of actions) expect(findAwsAction(action)?.action).toBe(action);
  });
});

describe("deny-IAM-admin identity policy (endpoint 5)", () => {
  const doc = buildDenyIamAdminIdentityPolicy();

  it("is the boundary's Deny statement alone", () => {
    expect(doc.Statement).toEqual([buildDenyIamAdminBoundaryPolicy().Statement[0]]);
    expect(doc.Statement.every((s) => s.Effect === "Deny")).toBe(true);
  });

  it("is valid and within the size limit", () => {
    expect(validateIdentityPolicy(doc)).toEqual([]);
    expect(listIamAdministerActions().length).toBeGreaterThan(95);
  });
});
