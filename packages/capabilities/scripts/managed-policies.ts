import { readFileSync } from "node:fs";
import { type AwsActionInfo, listAwsActions } from "../src/aws-catalogue.ts";
import type { Capability } from "../src/capability.ts";
import type { PolicyDocument, PolicyStatement } from "../src/policy-document.ts";
import { AWS_MANAGED_POLICY_EXCEPTIONS } from "./managed-policy-exceptions.ts";
import { AWS_MANAGED_POLICIES_REFERENCE } from "./reference-paths.ts";

// Independent checks of the AWS map against AWS's own managed policies, which are labels written
// by AWS: ViewOnlyAccess lists and describes without reading data, the `*ReadOnlyAccess` policies
// (ReadOnlyAccess itself included) and SecurityAudit read without changing anything.

export interface ManagedPolicy {
  arn: string;
  versionId: string;
  updatedDate?: string;
  document: PolicyDocument;
}

export function readManagedPolicies(): Record<string, ManagedPolicy> {
  return JSON.parse(
    readFileSync(new URL("policies.json", AWS_MANAGED_POLICIES_REFERENCE), "utf8"),
  ) as Record<string, ManagedPolicy>;
}

/** Case-insensitive IAM wildcard match (`*` any run, `?` one character), linear backtracking. */
export function matchesActionPattern(pattern: string, action: string): boolean {
  const p = pattern.toLowerCase();
  const s = action.toLowerCase();
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < s.length) {
    if (i < p.length && (p[i] === "?" || p[i] === s[j])) {
      i++;
      j++;
    } else if (i < p.length && p[i] === "*") {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (i < p.length && p[i] === "*") i++;
  return i === p.length;
}

const asList = (v: string | string[] | undefined) => (v === undefined ? [] : [v].flat());

/** Catalogue actions matching any of the patterns. */
function expandPatterns(patterns: readonly string[], actions: readonly AwsActionInfo[]) {
  const byPrefix = new Map<string, AwsActionInfo[]>();
  for (const a of actions) {
    const list = byPrefix.get(a.prefix.toLowerCase()) ?? [];
    list.push(a);
    byPrefix.set(a.prefix.toLowerCase(), list);
  }
  const found = new Set<AwsActionInfo>();
  for (const pattern of patterns) {
    const [prefix = ""] = pattern.toLowerCase().split(":");
    const candidates = /[*?]/.test(prefix) ? actions : (byPrefix.get(prefix) ?? []);
    for (const a of candidates) if (matchesActionPattern(pattern, a.action)) found.add(a);
  }
  return found;
}

function statementActions(st: PolicyStatement, actions: readonly AwsActionInfo[]) {
  if (st.NotAction !== undefined) {
    const excluded = expandPatterns(asList(st.NotAction), actions);
    return new Set(actions.filter((a) => !excluded.has(a)));
  }
  return expandPatterns(asList(st.Action), actions);
}

/**
 * Catalogue actions a policy allows: the union of its Allow statements, less the actions of Deny
 * statements that apply unconditionally to every resource. Conditions on Allow are ignored.
 */
export function expandPolicyActions(
  doc: PolicyDocument,
  actions: readonly AwsActionInfo[] = listAwsActions(),
): AwsActionInfo[] {
  const statements = [doc.Statement].flat();
  const allowed = new Set<AwsActionInfo>();
  for (const st of statements)
    if (st.Effect === "Allow") for (const a of statementActions(st, actions)) allowed.add(a);
  for (const st of statements) {
    const everywhere = asList(st.Resource).includes("*") && st.Condition === undefined;
    if (st.Effect === "Deny" && everywhere)
      for (const a of statementActions(st, actions)) allowed.delete(a);
  }
  return [...allowed];
}

/** Actions an Allow statement names exactly (no wildcard), lower-cased. */
export function namedPolicyActions(doc: PolicyDocument): Set<string> {
  const named = new Set<string>();
  for (const st of [doc.Statement].flat())
    if (st.Effect === "Allow")
      for (const a of asList(st.Action)) if (!/[*?]/.test(a)) named.add(a.toLowerCase());
  return named;
}

export interface ManagedPolicyCheck {
  id: string;
  /** What the check asserts, one line. */
  description: string;
  /** Policies the check reads. */
  policies: string[];
  /** Capabilities that must not appear on an action the policies grant. */
  forbidden: readonly Capability[];
}

export interface ManagedPolicyViolation {
  check: string;
  action: string;
  capabilities: readonly Capability[];
  /** Policies (of the check) granting the action. */
  policies: string[];
  /** True when no granting policy names the action: only a wildcard (`cloudwatch:Get*`) grants it. */
  viaWildcard: boolean;
  /** The documented exception's reason; absent means unexplained. */
  reason?: string;
}

export interface ManagedPolicyResult {
  check: ManagedPolicyCheck;
  /** Distinct catalogue actions the policies grant. */
  granted: number;
  violations: ManagedPolicyViolation[];
}

export function managedPolicyChecks(policies: Record<string, ManagedPolicy>): ManagedPolicyCheck[] {
  const readOnly = Object.keys(policies)
    .filter((n) => n.endsWith("ReadOnlyAccess"))
    .sort();
  return [
    {
      id: "view-only",
      description: "every action ViewOnlyAccess grants reads metadata, never data",
      policies: ["ViewOnlyAccess"],
      forbidden: ["read-data", "write-data", "delete-data"],
    },
    {
      id: "read-only",
      description: `the ${readOnly.length} *ReadOnlyAccess policies grant no write, delete or administration`,
      policies: readOnly,
      forbidden: ["write-data", "delete-data", "administer-resource"],
    },
    {
      id: "security-audit",
      description:
        "SecurityAudit reads configuration: no data read, write, delete or administration",
      policies: ["SecurityAudit"],
      forbidden: ["read-data", "write-data", "delete-data", "administer-resource"],
    },
  ];
}

export function runManagedPolicyChecks(): ManagedPolicyResult[] {
  const policies = readManagedPolicies();
  const actions = listAwsActions();
  const expanded = new Map<string, AwsActionInfo[]>();
  const grantsOf = (name: string) => {
    const policy = policies[name];
    if (!policy) throw new Error(`managed policy ${name} is not in the reference file`);
    let list = expanded.get(name);
    if (!list) {
      list = expandPolicyActions(policy.document, actions);
      expanded.set(name, list);
    }
    return list;
  };
  const named = new Map<string, Set<string>>();
  const namedOf = (name: string) => {
    let set = named.get(name);
    if (!set) {
      set = namedPolicyActions(
        policies[name]?.document ?? { Version: "2012-10-17", Statement: [] },
      );
      named.set(name, set);
    }
    return set;
  };
  return managedPolicyChecks(policies).map((check) => {
    const grantedBy = new Map<AwsActionInfo, string[]>();
    for (const name of check.policies)
      for (const a of grantsOf(name)) grantedBy.set(a, [...(grantedBy.get(a) ?? []), name]);
    const violations: ManagedPolicyViolation[] = [];
    for (const [a, names] of [...grantedBy].sort(([x], [y]) => (x.action < y.action ? -1 : 1))) {
      if (!a.capabilities.some((c) => check.forbidden.includes(c))) continue;
      const reason = AWS_MANAGED_POLICY_EXCEPTIONS[check.id]?.[a.action];
      const lower = a.action.toLowerCase();
      violations.push({
        check: check.id,
        action: a.action,
        capabilities: a.capabilities,
        policies: names,
        viaWildcard: !names.some((n) => namedOf(n).has(lower)),
        ...(reason ? { reason } : {}),
      });
    }
    return { check, granted: grantedBy.size, violations };
  });
}

export function formatManagedPolicyResult(r: ManagedPolicyResult, limit = Infinity): string {
  const unexplained = r.violations.filter((v) => !v.reason);
  const lines = [
    `${r.check.id}: ${r.check.description}: ${r.granted} actions granted, ${r.violations.length} violations (${r.violations.length - unexplained.length} documented exceptions, ${unexplained.length} unexplained)`,
  ];
  const shown = [...unexplained, ...r.violations.filter((v) => v.reason)].slice(0, limit);
  for (const v of shown) {
    const by = v.policies.length > 2 ? `${v.policies.slice(0, 2).join(", ")}, …` : v.policies;
    lines.push(
      `  ${v.action} [${v.capabilities.join(", ")}] (${[by].flat().join(", ")}${v.viaWildcard ? ", by wildcard" : ""}) — ${v.reason ?? "UNEXPLAINED"}`,
    );
  }
  if (shown.length < r.violations.length)
    lines.push(`  … and ${r.violations.length - shown.length} more`);
  return lines.join("\n");
}
