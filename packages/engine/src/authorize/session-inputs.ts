import { type Issue, issueAt } from "../issues.ts";
import { parsePolicyDocument } from "../policy/parse-policy-document.ts";
import type { Policy } from "../policy/policy-types.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

/** The request's session inputs, checked: session policies and tags. */
export interface CheckedSession {
  /** Present when at least one session policy was given: they cap identity grants. */
  policies?: Policy[];
  /** Session tags by key (as given); they override the role's tags of the same key. */
  tags?: Readonly<Record<string, string>>;
}

/** AWS's limits on session tags (IAM User Guide, 'Passing session tags in AWS STS'). */
const MAX_TAGS = 50;
const MAX_KEY_LENGTH = 128;
const MAX_VALUE_LENGTH = 256;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads `request.session`. Errors (a bad shape, a managed policy ARN the model lacks, a
 * caller that is not an assumed-role session) come back in `errors`: `authorize` then
 * denies, since ignoring a session input could only widen access. Parse problems inside
 * a session policy document are `warnings`; the document is used as any other (an
 * invalid Deny is kept as a Deny that may apply).
 */
export function readSessionInputs(
  model: AccountModel,
  raw: unknown,
  caller: RequestingPrincipal,
): { inputs: CheckedSession; errors: Issue[]; warnings: Issue[] } {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const inputs: CheckedSession = {};
  if (raw === undefined) return { inputs, errors, warnings };
  if (!isRecord(raw)) {
    errors.push(issueAt("session", "must be an object"));
    return { inputs, errors, warnings };
  }
  const isSession =
    caller.kind === "role" ||
    (caller.kind === "external" &&
      /^arn:[^:]+:(sts::\d{12}:assumed-role\/|iam::\d{12}:role\/)/.test(caller.arn));
  if (!isSession)
    errors.push(
      issueAt(
        "session",
        "session policies and tags apply only to an assumed-role session (a role or assumed-role ARN as principal)",
      ),
    );
  const owner = caller.sessionArn ?? caller.arn;
  const policies: Policy[] = [];
  let anyPolicy = false;
  if (raw.policies !== undefined) {
    if (!Array.isArray(raw.policies)) errors.push(issueAt("session.policies", "must be an array"));
    else
      raw.policies.forEach((doc, i) => {
        const path = `session.policies[${i}]`;
        if (doc === undefined || doc === null) {
          errors.push(issueAt(path, "must be a policy document"));
          return;
        }
        anyPolicy = true;
        const parsed = parsePolicyDocument(doc, path);
        for (const issue of parsed.issues) warnings.push({ ...issue, severity: "warning" });
        policies.push({
          id: `${owner}#session#${i}`,
          name: `session-policy-${i}`,
          type: "session",
          statements: parsed.statements,
        });
      });
  }
  if (raw.policyArns !== undefined) {
    if (!Array.isArray(raw.policyArns))
      errors.push(issueAt("session.policyArns", "must be an array of managed policy ARNs"));
    else
      raw.policyArns.forEach((arn, i) => {
        const path = `session.policyArns[${i}]`;
        if (typeof arn !== "string" || arn === "") {
          errors.push(issueAt(path, "must be a managed policy ARN"));
          return;
        }
        const policy = findManagedPolicy(model, arn);
        if (!policy) {
          errors.push(issueAt(path, `managed policy ${arn} is not in the snapshots`));
          return;
        }
        anyPolicy = true;
        policies.push({ ...policy, type: "session" });
      });
  }
  if (anyPolicy) inputs.policies = policies;
  if (raw.tags !== undefined) {
    const tags = readTags(raw.tags, errors);
    if (tags) inputs.tags = tags;
  }
  if (raw.transitiveTagKeys !== undefined) {
    const keys = raw.transitiveTagKeys;
    if (!Array.isArray(keys) || keys.some((k) => typeof k !== "string"))
      errors.push(issueAt("session.transitiveTagKeys", "must be an array of tag keys"));
    else {
      const known = new Set(Object.keys(inputs.tags ?? {}).map((k) => k.toLowerCase()));
      keys.forEach((key: string, i) => {
        if (!known.has(key.toLowerCase()))
          errors.push(
            issueAt(`session.transitiveTagKeys[${i}]`, `${key} is not one of the session tags`),
          );
      });
    }
  }
  for (const field of Object.keys(raw))
    if (!["policies", "policyArns", "tags", "transitiveTagKeys"].includes(field))
      warnings.push(issueAt(`session.${field}`, "unknown field, ignored", "warning"));
  return { inputs, errors, warnings };
}

function readTags(raw: unknown, errors: Issue[]): Record<string, string> | undefined {
  if (!isRecord(raw)) {
    errors.push(issueAt("session.tags", "must be an object of tag keys to string values"));
    return undefined;
  }
  const entries = Object.entries(raw);
  if (entries.length > MAX_TAGS)
    errors.push(issueAt("session.tags", `at most ${MAX_TAGS} session tags`));
  const seen = new Map<string, string>();
  const tags: Record<string, string> = {};
  for (const [key, value] of entries) {
    const path = `session.tags.${key}`;
    if (key === "" || key.length > MAX_KEY_LENGTH)
      errors.push(issueAt(path, `tag key must have 1 to ${MAX_KEY_LENGTH} characters`));
    if (typeof value !== "string" || value.length > MAX_VALUE_LENGTH) {
      errors.push(
        issueAt(path, `tag value must be a string of at most ${MAX_VALUE_LENGTH} characters`),
      );
      continue;
    }
    const lower = key.toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined) {
      // AWS compares session tag keys case-insensitively: two such keys are one key twice.
      errors.push(issueAt(path, `duplicate tag key (case-insensitive) of ${other}`));
      continue;
    }
    seen.set(lower, key);
    tags[key] = value;
  }
  return tags;
}

function findManagedPolicy(model: AccountModel, arn: string): Policy | undefined {
  for (const account of model.accounts.values()) {
    const policy = account.managedPolicies.get(arn);
    if (policy) return policy;
  }
  return undefined;
}
