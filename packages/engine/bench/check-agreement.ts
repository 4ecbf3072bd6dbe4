import { listAwsActions } from "@sightline/capabilities";
import type {
  AccessLevel,
  AccountAnalysis,
  AccountModel,
  PrincipalAccessSummary,
  ResourceAccessSummary,
} from "../src/index.ts";
import {
  AWS_PROTECTED_RESOURCES,
  accountOfArn,
  authorize,
  isAlwaysAllowedAction,
} from "../src/index.ts";
import { Random } from "./random.ts";

export interface AgreementOptions {
  /** Principals checked on every catalogue action on `*` (and their service-wide rows). */
  fullPrincipals: number;
  /** Extra random (principal, action) requests on `*`. */
  randomRequests: number;
  /** (principal, resource) pairs checked on every action of the resource's service. */
  resourcePairs: number;
  seed?: number;
}

export interface AgreementReport {
  checked: number;
  mismatches: string[];
  authorizeCalls: number;
  authorizeMs: number;
}

const level = (d: string): AccessLevel => (d === "allowed" || d === "conditional" ? d : "denied");

/**
 * Compares the analysis with plain `authorize` calls on sampled requests: per-action
 * decisions on `*`, service-wide capability rows, and resource access rows.
 */
export function checkAgreement(
  model: AccountModel,
  analysis: AccountAnalysis,
  principalRows: ReadonlyMap<string, PrincipalAccessSummary[]>,
  resourceRows: ReadonlyMap<string, ResourceAccessSummary[]>,
  sampled: ReturnType<typeof sampleRequests>,
): AgreementReport {
  const actions = listAwsActions();
  const report: AgreementReport = { checked: 0, mismatches: [], authorizeCalls: 0, authorizeMs: 0 };
  const decide = (principal: string, action: string, resource: string): AccessLevel => {
    const t = performance.now();
    const d = authorize(model, { principal, action, resource }).decision;
    report.authorizeMs += performance.now() - t;
    report.authorizeCalls++;
    return level(d);
  };
  const mismatch = (text: string) => {
    if (report.mismatches.length < 20) report.mismatches.push(text);
    else report.mismatches.length++;
  };
  for (const principal of sampled.principals) {
    const expected = new Map<string, boolean>();
    for (const info of actions) {
      const want = decide(principal, info.action, "*");
      const got = analysis.accessOf(principal, info.action, "*");
      report.checked++;
      if (want !== got)
        mismatch(`${principal} ${info.action} *: authorize ${want}, analysis ${got}`);
      // Actions that need no permission are in no capability row (README).
      if (want === "denied" || isAlwaysAllowedAction(info.action)) continue;
      for (const cap of info.capabilities) {
        const key = `${info.service}|${cap}`;
        expected.set(key, (expected.get(key) ?? true) && want === "conditional");
      }
    }
    const rows = (principalRows.get(principal) ?? []).filter((r) => r.resourceArn === "");
    compareLevels(
      `${principal} service-wide`,
      expected,
      new Map(rows.map((r) => [`${r.service}|${r.capability}`, r.conditional])),
      mismatch,
    );
    report.checked += expected.size;
  }
  for (const { principal, action } of sampled.random) {
    const want = decide(principal, action, "*");
    const got = analysis.accessOf(principal, action, "*");
    report.checked++;
    if (want !== got) mismatch(`${principal} ${action} *: authorize ${want}, analysis ${got}`);
  }
  // Resources AWS does not let customers change: the refused actions and their neighbours.
  const protectedActions = [
    ...new Set([
      ...AWS_PROTECTED_RESOURCES.flatMap((r) => r.actions),
      "iam:getrole",
      "iam:passrole",
      "iam:deleteservicelinkedrole",
      "iam:getpolicy",
      "kms:listaliases",
    ]),
  ];
  for (const principal of sampled.principals) {
    const account = accountOfArn(principal) ?? "123456789012";
    const resources = [
      "arn:aws:iam::aws:policy/AdministratorAccess",
      `arn:aws:iam::${account}:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_Admin_1`,
      `arn:aws:iam::${account}:role/aws-service-role/ecs.amazonaws.com/AWSServiceRoleForECS`,
      `arn:aws:kms:us-east-1:${account}:alias/aws/s3`,
    ];
    for (const action of protectedActions) {
      for (const resource of resources) {
        const want = decide(principal, action, resource);
        const got = analysis.accessOf(principal, action, resource);
        report.checked++;
        if (want !== got)
          mismatch(`${principal} ${action} ${resource}: authorize ${want}, analysis ${got}`);
      }
    }
  }
  for (const { principal, resource } of sampled.pairs) {
    const expected = new Map<string, boolean>();
    const service = resource.includes(":kms:") ? "kms" : resource.includes(":s3:::") ? "s3" : "sts";
    const isBucket = service === "s3";
    for (const info of actions) {
      if (info.prefix !== service) continue;
      const objectOnly =
        isBucket && info.resourceTypes.includes("object") && !info.resourceTypes.includes("bucket");
      const want = decide(principal, info.action, objectOnly ? `${resource}/*` : resource);
      report.checked++;
      // Actions that need no permission are in no capability row (README).
      if (want === "denied" || isAlwaysAllowedAction(info.action)) continue;
      for (const cap of info.capabilities) {
        const key = `${info.service}|${cap}`;
        expected.set(key, (expected.get(key) ?? true) && want === "conditional");
      }
    }
    const rows = (resourceRows.get(resource) ?? []).filter((r) => r.principal === principal);
    compareLevels(
      `${principal} on ${resource}`,
      expected,
      new Map(rows.map((r) => [`${r.service}|${r.capability}`, r.conditional])),
      mismatch,
    );
  }
  return report;
}

function compareLevels(
  what: string,
  expected: ReadonlyMap<string, boolean>,
  got: ReadonlyMap<string, boolean>,
  mismatch: (text: string) => void,
): void {
  for (const [key, conditional] of expected) {
    if (!got.has(key)) mismatch(`${what}: missing ${key}${conditional ? " (conditional)" : ""}`);
    else if (got.get(key) !== conditional)
      mismatch(`${what}: ${key} conditional should be ${conditional}`);
  }
  for (const key of got.keys()) if (!expected.has(key)) mismatch(`${what}: unexpected ${key}`);
}

export interface CollectedRows {
  principalRows: Map<string, PrincipalAccessSummary[]>;
  resourceRows: Map<string, ResourceAccessSummary[]>;
  principalCount: number;
  resourceCount: number;
}

/** Iterates every summary row once, keeping only the rows the agreement check looks at. */
export function collectRows(
  analysis: AccountAnalysis,
  sampled: ReturnType<typeof sampleRequests>,
): CollectedRows {
  const watched = new Set([...sampled.principals, ...sampled.pairs.map((p) => p.principal)]);
  const watchedResources = new Set(sampled.pairs.map((p) => p.resource));
  const out: CollectedRows = {
    principalRows: new Map(),
    resourceRows: new Map(),
    principalCount: 0,
    resourceCount: 0,
  };
  for (const row of analysis.principalAccessSummaries()) {
    out.principalCount++;
    if (watched.has(row.principalArn)) pushTo(out.principalRows, row.principalArn, row);
  }
  for (const row of analysis.resourceAccessSummaries()) {
    out.resourceCount++;
    if (watchedResources.has(row.resourceArn)) pushTo(out.resourceRows, row.resourceArn, row);
  }
  return out;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The resources the analysis reports: those with a policy, then owned buckets without one. */
export function reportedResources(model: AccountModel): string[] {
  const withPolicy = [...model.resourcePolicies.keys()];
  const plain = [...model.bucketOwners.keys()].filter((b) => !model.resourcePolicies.has(b));
  return [...withPolicy, ...plain];
}

/** Seeded choice of principals and (principal, resource) pairs to check. */
export function sampleRequests(model: AccountModel, options: AgreementOptions) {
  const rnd = new Random(options.seed ?? 7);
  const arns = [...model.principals.keys()];
  const resources = reportedResources(model);
  const principals = Array.from({ length: Math.min(options.fullPrincipals, arns.length) }, () =>
    rnd.pick(arns),
  );
  const pairs = Array.from({ length: options.resourcePairs }, () => ({
    principal: rnd.pick(arns),
    resource: rnd.pick(resources),
  }));
  const actions = listAwsActions();
  const random = Array.from({ length: options.randomRequests }, () => ({
    principal: rnd.pick(arns),
    action: rnd.pick(actions).action,
  }));
  return { principals: [...new Set(principals)], pairs, random };
}
