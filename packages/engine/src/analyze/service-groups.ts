import type { Policy, Statement } from "../policy/policy-types.ts";
import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import { type Bits, complementBits, intersectBits, unionBits } from "./bits.ts";
import type { CapabilityLevel } from "./capability-levels.ts";
import type { GroupNaming } from "./grant-names.ts";
import type { GrantList } from "./grant-sources.ts";
import { groupPrincipals, policySetKey } from "./principal-groups.ts";
import { matchesDiffer } from "./resource-literals.ts";
import type { TriSet } from "./tri-set.ts";

/** The capability levels of one principal group on a resource. */
export interface GroupLevels {
  /** The group's key (in `ServiceGroups.membersByGroup`). */
  groupKey: string;
  levels: readonly CapabilityLevel[];
  /** The decision set the levels are read from (what grants them is looked up in it). */
  set: TriSet;
  /**
   * Per level, the identity statements of `rep` (the group's member the rows are computed
   * for) that grant it on the stand-in resources, and (`naming`) those lists named for the
   * members the rows are for: filled by `summarizeResources`, shared by every resource whose
   * policy gives the group this outcome.
   */
  identityGrants?: { rep: PrincipalRecord; byLevel: readonly GrantList[]; naming?: GroupNaming };
}

/**
 * The principals grouped for one service (prefix window) by the policies that matter for
 * it, with the indexes that tell which groups a given resource singles out.
 */
export interface ServiceGroups {
  /** The service's actions in the catalogue. */
  window: PrefixWindow;
  /** Group key (the principals' policy set for this service, `policySetKey`) → its members. */
  membersByGroup: Map<string, PrincipalRecord[]>;
  /**
   * `account|kind` → its group keys: a resource policy treats the principals of one account
   * and kind alike unless it names them.
   */
  groupsByAccountKind: Map<string, string[]>;
  /** Policy content id (`PolicyIds`) → keys of the groups that hold the policy (identity or boundary). */
  groupsByPolicy: Map<number, string[]>;
  /**
   * Identity and boundary statements naming the service's actions on wildcard or variable
   * resource patterns, with their policy's id: they may single a resource out.
   */
  wildcardResourceStatements: { policyId: number; statement: Statement }[];
  /** Exact resource ARN → ids of the policies whose statements name it for the service's actions. */
  policiesByExactResource: Map<string, number[]>;
  /**
   * SCP and RCP statements naming the service's actions on resources other than `*`: one
   * that treats a resource apart singles out every group.
   */
  orgResourceStatements: Statement[];
  /**
   * Levels of an account and kind's groups on resources that single none of them out, by
   * account and kind and by the resource side's outcome (filled by `summarizeResources`).
   */
  levelsByResourceSide: Map<string, GroupLevels[]>;
  /** Principals by ARN and by unique ID. */
  principalByArnOrId: Map<string, PrincipalRecord>;
  /** Each principal's group key. */
  groupKeyOf: Map<PrincipalRecord, string>;
  /** The service's S3 object-level actions (decided on `bucket/*`), computed on first use. */
  objectActionMask?: Uint32Array;
}

/** Groups `records` by the policies that matter for `window`'s service, and indexes what singles resources out. */
export function createServiceGroups(
  evaluator: AccessEvaluator,
  records: readonly PrincipalRecord[],
  window: PrefixWindow,
): ServiceGroups {
  const { model, index } = evaluator;
  const membersByGroup = groupPrincipals(records, (r) =>
    policySetKey(model, evaluator.ids, index, r, window),
  );
  const groupsByAccountKind = new Map<string, string[]>();
  const groupsByPolicy = new Map<number, string[]>();
  const wildcardResourceStatements: ServiceGroups["wildcardResourceStatements"] = [];
  const policiesByExactResource = new Map<string, number[]>();
  const seen = new Set<number>();
  const touches = (s: Statement) => index.namesActionIn(index.actionSet(s), window);
  const groupKeyOf = new Map<PrincipalRecord, string>();
  for (const [key, members] of membersByGroup) {
    for (const m of members) groupKeyOf.set(m, key);
    const rep = members[0] as PrincipalRecord;
    pushTo(groupsByAccountKind, `${rep.accountId}|${rep.kind}`, key);
    const policies: Policy[] = [
      ...rep.identityPolicies,
      ...(rep.permissionsBoundary ? [rep.permissionsBoundary] : []),
    ];
    for (const policy of policies) {
      const policyId = evaluator.ids.idOf(policy.statements);
      pushTo(groupsByPolicy, policyId, key);
      if (seen.has(policyId)) continue;
      seen.add(policyId);
      for (const statement of policy.statements) {
        if (!touches(statement) || isStar(statement)) continue;
        const patterns = statement.resource ?? statement.notResource ?? [];
        // An exact ARN singles out only itself: index it instead of testing it per resource.
        if (patterns.some((p) => /[*?]|\$\{/.test(p)))
          wildcardResourceStatements.push({ policyId, statement });
        else for (const p of patterns) pushTo(policiesByExactResource, p, policyId);
      }
    }
  }
  const orgResourceStatements: Statement[] = [];
  for (const account of model.accounts.values()) {
    for (const policy of [
      ...account.serviceControlPolicies.flat(),
      ...account.resourceControlPolicies.flat(),
    ]) {
      for (const s of policy.statements)
        if (touches(s) && !isStar(s)) orgResourceStatements.push(s);
    }
  }
  const principalByArnOrId = new Map<string, PrincipalRecord>();
  for (const r of records) {
    principalByArnOrId.set(r.arn, r);
    principalByArnOrId.set(r.id, r);
  }
  return {
    window,
    membersByGroup,
    groupsByAccountKind,
    groupsByPolicy,
    wildcardResourceStatements,
    policiesByExactResource,
    orgResourceStatements,
    levelsByResourceSide: new Map(),
    principalByArnOrId,
    groupKeyOf,
  };
}

/** The members of a group that a resource policy does not name (by ARN or unique ID). */
export function unnamedMembers(
  groups: ServiceGroups,
  groupKey: string,
  named: ReadonlySet<string>,
): readonly PrincipalRecord[] {
  const all = groups.membersByGroup.get(groupKey) ?? [];
  return named.size === 0 ? all : all.filter((m) => !named.has(m.arn) && !named.has(m.id));
}

/** Keys of the groups that hold a principal a resource policy names (by ARN or unique ID). */
export function groupsNaming(groups: ServiceGroups, named: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const m of namedMembers(groups, named)) {
    const key = groups.groupKeyOf.get(m);
    if (key !== undefined) out.add(key);
  }
  return out;
}

/** The first of `members` that a resource policy does not name: it stands for the group. */
export function firstUnnamedMember(
  members: readonly PrincipalRecord[],
  named: ReadonlySet<string>,
): PrincipalRecord | undefined {
  return members.find((m) => !named.has(m.arn) && !named.has(m.id));
}

/** In-snapshot principals a resource policy names by ARN or unique ID. */
export function namedMembers(groups: ServiceGroups, named: ReadonlySet<string>): PrincipalRecord[] {
  const out: PrincipalRecord[] = [];
  for (const name of named) {
    const record = groups.principalByArnOrId.get(name);
    if (record) out.push(record);
  }
  return out;
}

/** Keys of the groups whose policies treat `literal` differently from `standIn` (or `all`). */
export function groupsSinglingOut(
  groups: ServiceGroups,
  literal: string,
  standIn: string,
): Set<string> | "all" {
  if (groups.orgResourceStatements.some((s) => matchesDiffer(s, literal, standIn))) return "all";
  const out = new Set<string>();
  for (const policyId of groups.policiesByExactResource.get(literal) ?? []) {
    for (const key of groups.groupsByPolicy.get(policyId) ?? []) out.add(key);
  }
  for (const { policyId, statement } of groups.wildcardResourceStatements) {
    if (!matchesDiffer(statement, literal, standIn)) continue;
    for (const key of groups.groupsByPolicy.get(policyId) ?? []) out.add(key);
  }
  return out;
}

/**
 * A resource's action set from the sets evaluated on its literals: the resource alone, or a
 * bucket and `bucket/*` (S3 object-level actions are decided on `bucket/*`, the others on the bucket).
 */
export function actionSetOfLiterals(
  groups: ServiceGroups,
  index: ActionIndex,
  setsByLiteral: readonly TriSet[],
): TriSet {
  return setsByLiteral.length === 2
    ? mergeObjectSets(groups, index, {
        onBucket: setsByLiteral[0] as TriSet,
        onObjects: setsByLiteral[1] as TriSet,
      })
    : (setsByLiteral[0] as TriSet);
}

function mergeObjectSets(
  groups: ServiceGroups,
  index: ActionIndex,
  sets: { onBucket: TriSet; onObjects: TriSet },
): TriSet {
  const { window } = groups;
  const width = window.lastWord - window.firstWord;
  if (!groups.objectActionMask) {
    const mask = new Uint32Array(width);
    for (let i = window.start; i < window.end; i++) {
      const types = index.actions[i]?.resourceTypes ?? [];
      if (types.includes("object") && !types.includes("bucket")) {
        const bit = i - window.firstWord * 32;
        mask[bit >>> 5] = (mask[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
    groups.objectActionMask = mask;
  }
  const mask = groups.objectActionMask;
  const other = complementBits(mask, width);
  const pick = (a: Bits, b: Bits) =>
    unionBits([intersectBits([a, mask], width), intersectBits([b, other], width)], width);
  return {
    sure: pick(sets.onObjects.sure, sets.onBucket.sure),
    maybe: pick(sets.onObjects.maybe, sets.onBucket.maybe),
  };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function isStar(s: Statement): boolean {
  return s.resource?.every((r) => r === "*") === true;
}
