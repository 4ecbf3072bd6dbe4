import { describe, expect, it } from "vitest";
import {
  expandPolicyActions,
  formatManagedPolicyResult,
  matchesActionPattern,
  runManagedPolicyChecks,
} from "../scripts/managed-policies.ts";
import { AWS_MANAGED_POLICY_EXCEPTIONS } from "../scripts/managed-policy-exceptions.ts";
import { findAwsAction } from "../src/aws-catalogue.ts";

// AWS's managed policies are labels written by AWS: ViewOnlyAccess reads no data, the
// *ReadOnlyAccess policies and SecurityAudit change nothing. Every action they grant against that
// label must be a documented exception with a reason.
describe("AWS managed-policy checks", () => {
  const results = runManagedPolicyChecks();

  it("matches IAM action wildcards without case", () => {
    expect(matchesActionPattern("s3:Get*", "s3:GetObject")).toBe(true);
    expect(matchesActionPattern("S3:get*", "s3:GetObject")).toBe(true);
    expect(matchesActionPattern("s3:Get?bject", "s3:GetObject")).toBe(true);
    expect(matchesActionPattern("s3:Get*Tagging", "s3:GetObject")).toBe(false);
    expect(matchesActionPattern("s3:*", "s3express:CreateSession")).toBe(false);
    expect(matchesActionPattern("*", "s3:GetObject")).toBe(true);
  });

  it("expands NotAction as the complement and drops unconditional denies", () => {
    const notIam = expandPolicyActions({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", NotAction: "iam:*", Resource: "*" }],
    });
    expect(notIam.some((a) => a.prefix === "iam")).toBe(false);
    expect(notIam.some((a) => a.action === "s3:GetObject")).toBe(true);
    const denied = expandPolicyActions({
      Version: "2012-10-17",
      Statement: [
        { Effect: "Allow", Action: "sqs:*", Resource: "*" },
        { Effect: "Deny", Action: "sqs:Delete*", Resource: "*" },
      ],
    });
    expect(denied.some((a) => a.action === "sqs:DeleteQueue")).toBe(false);
    expect(denied.some((a) => a.action === "sqs:SendMessage")).toBe(true);
  });

  it("covers the policies it claims to", () => {
    const byId = new Map(results.map((r) => [r.check.id, r]));
    expect(byId.get("view-only")?.granted).toBeGreaterThan(1000);
    expect(byId.get("read-only")?.check.policies).toContain("ReadOnlyAccess");
    expect(byId.get("read-only")?.check.policies.length).toBeGreaterThan(150);
    expect(byId.get("security-audit")?.granted).toBeGreaterThan(1000);
  });

  it("has no unexplained violation", () => {
    for (const r of results) console.log(formatManagedPolicyResult(r));
    const unexplained = results.flatMap((r) =>
      r.violations.filter((v) => !v.reason).map((v) => `${r.check.id} ${v.action}`),
    );
    expect(unexplained).toEqual([]);
  });

  it("keeps no stale exception", () => {
    const violating = new Set(
      results.flatMap((r) => r.violations.map((v) => `${r.check.id} ${v.action}`)),
    );
    const stale = Object.entries(AWS_MANAGED_POLICY_EXCEPTIONS).flatMap(([id, actions]) =>
      Object.keys(actions)
        .map((a) => `${id} ${a}`)
        .filter((key) => !violating.has(key)),
    );
    expect(stale).toEqual([]);
    for (const actions of Object.values(AWS_MANAGED_POLICY_EXCEPTIONS))
      for (const a of Object.keys(actions)) expect(findAwsAction(a)?.action).toBe(a);
  });
});
