import { type Issue, issueAt } from "../issues.ts";
import { parsePolicyDocument } from "../policy/parse-policy-document.ts";
import type { Policy } from "../policy/policy-types.ts";
import { arrayField, isObject, optionalString, requireString } from "./read-fields.ts";

/** Reads GAAD `Policies`: every version is present, only the default one is in force. */
export function parseManagedPolicies(raw: unknown[], issues: Issue[]): Map<string, Policy> {
  const policies = new Map<string, Policy>();
  raw.forEach((entry, i) => {
    const path = `Policies[${i}]`;
    if (!isObject(entry)) {
      issues.push(issueAt(path, "must be an object"));
      return;
    }
    const arn = requireString(entry, "Arn", path, issues);
    if (!arn) return;
    const name = optionalString(entry, "PolicyName") ?? arn.split("/").pop() ?? arn;
    const versions = arrayField(entry, "PolicyVersionList", path, issues);
    const defaultId = optionalString(entry, "DefaultVersionId");
    const index = versions.findIndex(
      (v) =>
        isObject(v) &&
        (v.IsDefaultVersion === true || (defaultId !== undefined && v.VersionId === defaultId)),
    );
    const version = versions[index];
    if (!isObject(version)) {
      issues.push(
        issueAt(`${path}.PolicyVersionList`, "has no default version; the policy grants nothing"),
      );
      policies.set(arn, { id: arn, name, type: "identity", statements: [] });
      return;
    }
    const parsed = parsePolicyDocument(
      version.Document,
      `${path}.PolicyVersionList[${index}].Document`,
    );
    issues.push(...parsed.issues);
    policies.set(arn, { id: arn, name, type: "identity", statements: parsed.statements });
  });
  return policies;
}
