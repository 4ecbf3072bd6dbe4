import { MANAGED_POLICY_MAX_CHARS, measurePolicySize } from "./policy-document.ts";

const TOP_LEVEL_KEYS = new Set(["Version", "Id", "Statement"]);
const STATEMENT_KEYS = new Set([
  "Sid",
  "Effect",
  "Action",
  "NotAction",
  "Resource",
  "NotResource",
  "Principal",
  "NotPrincipal",
  "Condition",
]);
/** `service:Action`, where the action part may use `*` and `?` wildcards; or `*` alone. */
const ACTION = /^(\*|[a-z0-9-]+:[A-Za-z0-9*?]+)$/;
const SID = /^[A-Za-z0-9]*$/;

/**
 * Checks an identity policy document (no Principal) against the IAM grammar and limits: allowed
 * keys, Effect values, action format, no duplicate actions, size. Returns the problems found.
 */
export function validateIdentityPolicy(doc: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(doc)) return ["document is not an object"];
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_KEYS.has(key)) problems.push(`unknown top-level key ${key}`);
  }
  if (doc.Version !== "2012-10-17") problems.push("Version must be 2012-10-17");
  const statements = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
  if (statements.length === 0) problems.push("Statement is empty");
  const sids = new Set<string>();
  statements.forEach((s, i) => {
    problems.push(...validateStatement(s, `Statement[${i}]`));
    if (isRecord(s) && typeof s.Sid === "string") {
      if (sids.has(s.Sid)) problems.push(`duplicate Sid ${s.Sid}`);
      sids.add(s.Sid);
    }
  });
  if (problems.length === 0) {
    const size = measurePolicySize(doc as never);
    if (size > MANAGED_POLICY_MAX_CHARS) problems.push(`${size} characters exceeds the limit`);
  }
  return problems;
}

function validateStatement(s: unknown, at: string): string[] {
  if (!isRecord(s)) return [`${at} is not an object`];
  const problems: string[] = [];
  for (const key of Object.keys(s)) {
    if (!STATEMENT_KEYS.has(key)) problems.push(`${at} has unknown key ${key}`);
  }
  if ("Principal" in s || "NotPrincipal" in s)
    problems.push(`${at}: identity policies take no Principal`);
  if (s.Effect !== "Allow" && s.Effect !== "Deny")
    problems.push(`${at}.Effect must be Allow or Deny`);
  if (s.Sid !== undefined && (typeof s.Sid !== "string" || !SID.test(s.Sid)))
    problems.push(`${at}.Sid must be alphanumeric`);
  if ("Action" in s === "NotAction" in s)
    problems.push(`${at} needs exactly one of Action, NotAction`);
  if ("Resource" in s === "NotResource" in s)
    problems.push(`${at} needs exactly one of Resource, NotResource`);
  for (const key of ["Action", "NotAction"] as const) {
    if (key in s) problems.push(...validateActions(s[key], `${at}.${key}`));
  }
  for (const key of ["Resource", "NotResource"] as const) {
    if (key in s && !isStringOrStrings(s[key])) problems.push(`${at}.${key} must be strings`);
  }
  return problems;
}

function validateActions(value: unknown, at: string): string[] {
  if (!isStringOrStrings(value)) return [`${at} must be a string or an array of strings`];
  const list = typeof value === "string" ? [value] : value;
  if (list.length === 0) return [`${at} is empty`];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const action of list) {
    if (!ACTION.test(action)) problems.push(`${at}: ${action} is not service:Action`);
    const lower = action.toLowerCase();
    if (seen.has(lower)) problems.push(`${at}: duplicate action ${action}`);
    seen.add(lower);
  }
  return problems;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isStringOrStrings(v: unknown): v is string | string[] {
  return (
    typeof v === "string" ||
    (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"))
  );
}
