import type { PolicyIds } from "../analyze/policy-traits.ts";
import { principalSignature } from "../analyze/principal-signature.ts";
import { statementMatchesAction } from "../authorize/evaluate-statement.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { AccountData, AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { PolicyFactsCache } from "./policy-relevance.ts";

const ASSUME = "sts:AssumeRole";

/** Principals of one account whose policies decide any assume request alike. */
export interface AssumeGroup {
  members: PrincipalRecord[];
  /** An identity Allow for sts:AssumeRole names a resource pattern (`*`, wildcards, variables, NotResource). */
  broad: boolean;
  /** Role ARNs named exactly by its identity Allows for sts:AssumeRole. */
  targets: string[];
}

/**
 * An account's groups, indexed by the roles their identity Allows could cover: where an
 * identity Allow is needed, only these groups are evaluated; the others are denied.
 */
export interface AccountGroups {
  all: AssumeGroup[];
  broad: AssumeGroup[];
  byTarget: Map<string, AssumeGroup[]>;
}

export function groupsThatMayAssume(groups: AccountGroups, roleArn: string): AssumeGroup[] {
  const exact = groups.byTarget.get(roleArn);
  return exact ? [...groups.broad, ...exact] : groups.broad;
}

/**
 * Groups an account's principals by what decides sts:AssumeRole for them: kind, boundary,
 * the identity policies naming it (by content, or by ID where a condition may name the
 * policy: `keyOf`), and `principalSignature` where policies test the principal.
 */
export function assumeGroups(
  model: AccountModel,
  ids: PolicyIds,
  facts: PolicyFactsCache,
  account: AccountData,
): AccountGroups {
  const orgPolicies = account.serviceControlPolicies
    .flat()
    .filter((p) => facts.relevanceOf(p.statements, ASSUME).relevant);
  const groups = new Map<string, AssumeGroup>();
  for (const record of [...account.users, ...account.roles]) {
    const signatures: string[] = [];
    const sign = (policy: Policy) => {
      if (ids.isDependent(policy.statements))
        signatures.push(principalSignature(model, policy.statements, record));
    };
    orgPolicies.forEach(sign);
    const identity: string[] = [];
    const relevant: Policy[] = [];
    for (const policy of record.identityPolicies) {
      if (!facts.relevanceOf(policy.statements, ASSUME).relevant) continue;
      relevant.push(policy);
      identity.push(keyOf(ids, policy));
      sign(policy);
    }
    const boundary = record.permissionsBoundary;
    if (boundary) sign(boundary);
    identity.sort();
    const boundaryId = boundary ? keyOf(ids, boundary) : "";
    const key = `${record.kind}|${record.serviceLinked ? 1 : 0}|${boundaryId}|${JSON.stringify(identity)}|${signatures.join("|")}`;
    const group = groups.get(key);
    if (group) group.members.push(record);
    else groups.set(key, { members: [record], ...allowedTargets(relevant) });
  }
  const all = [...groups.values()];
  const byTarget = new Map<string, AssumeGroup[]>();
  for (const group of all)
    for (const arn of group.targets) {
      const list = byTarget.get(arn);
      if (list) list.push(group);
      else byTarget.set(arn, [group]);
    }
  return { all, broad: all.filter((g) => g.broad), byTarget };
}

/**
 * A policy as part of a group's key. A group's members share one decision, whose condition
 * names the policies it came from (`policyId`): a policy that may make the decision
 * conditional is keyed by its ID (members holding this very policy, a managed or group
 * policy, still share), any other by its content (equal inline policies share).
 */
function keyOf(ids: PolicyIds, policy: Policy): string {
  return policy.statements.some(mayCondition) ? `=${policy.id}` : `${ids.idOf(policy.statements)}`;
}

/** The statement's outcome may be a condition: Condition, an invalid Deny, a variable in its resources. */
function mayCondition(s: Statement): boolean {
  const variable = (list: readonly string[] | undefined) =>
    list?.some((p) => p.includes("${")) === true;
  return (
    s.conditions.length > 0 ||
    s.invalid !== undefined ||
    variable(s.resource) ||
    variable(s.notResource)
  );
}

function allowedTargets(policies: readonly Policy[]): { broad: boolean; targets: string[] } {
  let broad = false;
  const targets = new Set<string>();
  for (const policy of policies)
    for (const s of policy.statements) {
      if (s.effect !== "Allow" || !statementMatchesAction(s, ASSUME)) continue;
      if (!s.resource || s.resource.some((p) => /[*?]|\$\{/.test(p))) broad = true;
      else for (const p of s.resource) targets.add(p);
    }
  return { broad, targets: [...targets] };
}
