import { type Issue, issueAt } from "../issues.ts";
import { parsePolicyDocument } from "../policy/parse-policy-document.ts";
import type { Policy } from "../policy/policy-types.ts";
import { arrayField, isObject, optionalString, requireString } from "./read-fields.ts";

/** Inline policies (`UserPolicyList`, `GroupPolicyList`, `RolePolicyList`). */
export function readInlinePolicies(
  entry: Record<string, unknown>,
  field: string,
  ownerArn: string,
  path: string,
  issues: Issue[],
): Policy[] {
  const policies: Policy[] = [];
  arrayField(entry, field, path, issues).forEach((raw, i) => {
    const itemPath = `${path}.${field}[${i}]`;
    if (!isObject(raw)) {
      issues.push(issueAt(itemPath, "must be an object"));
      return;
    }
    const name = requireString(raw, "PolicyName", itemPath, issues) ?? `inline-${i}`;
    const parsed = parsePolicyDocument(raw.PolicyDocument, `${itemPath}.PolicyDocument`);
    issues.push(...parsed.issues);
    policies.push({
      id: `${ownerArn}#inline#${name}`,
      name,
      type: "identity",
      statements: parsed.statements,
    });
  });
  return policies;
}

/** `AttachedManagedPolicies`: ARNs only; the documents live in `Policies`. */
export function readAttachedPolicyArns(
  entry: Record<string, unknown>,
  path: string,
  issues: Issue[],
): string[] {
  const arns: string[] = [];
  arrayField(entry, "AttachedManagedPolicies", path, issues).forEach((raw, i) => {
    const itemPath = `${path}.AttachedManagedPolicies[${i}]`;
    if (!isObject(raw)) issues.push(issueAt(itemPath, "must be an object"));
    else {
      const arn = requireString(raw, "PolicyArn", itemPath, issues);
      if (arn) arns.push(arn);
    }
  });
  return arns;
}

export function readBoundaryArn(entry: Record<string, unknown>): string | undefined {
  const boundary = entry.PermissionsBoundary;
  return isObject(boundary) ? optionalString(boundary, "PermissionsBoundaryArn") : undefined;
}
