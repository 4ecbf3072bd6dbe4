import type { Policy, Statement } from "../policy/policy-types.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import { type Bits, complementBits, intersectBits, unionBits } from "./bits.ts";
import type { CapabilityLevel } from "./capability-levels.ts";
import { groupPrincipals, policySetKey } from "./principal-groups.ts";
import { matchesDiffer } from "./resource-literals.ts";
import type { TriSet } from "./tri-set.ts";

/** Principals of one service prefix, grouped by the policies that matter for it. */
export interface PrefixState {
  window: PrefixWindow;
  groups: Map<string, PrincipalRecord[]>;
  /** account|kind → group keys: these share how a resource policy treats unnamed principals. */
  classes: Map<string, string[]>;
  groupsByPolicy: Map<number, string[]>;
  /** Statements naming window actions on resource patterns: they may single a resource out. */
  specific: { id: number; statement: Statement }[];
  /** Policies by the exact resource ARNs their statements name (for window actions). */
  exact: Map<string, number[]>;
  orgSpecific: Statement[];
  shared: Map<string, { key: string; list: CapabilityLevel[]; set: TriSet }[]>;
  /** Principals by ARN and by unique ID. */
  byName: Map<string, PrincipalRecord>;
  objectMask?: Uint32Array;
}

export function unnamedMembers(
  state: PrefixState,
  key: string,
  named: ReadonlySet<string>,
): readonly PrincipalRecord[] {
  const all = state.groups.get(key) ?? [];
  return named.size === 0 ? all : all.filter((m) => !named.has(m.arn) && !named.has(m.id));
}

export function combine(state: PrefixState, index: ActionIndex, sets: readonly TriSet[]): TriSet {
  return sets.length === 2
    ? mergeObjectSets(state, index, sets[0] as TriSet, sets[1] as TriSet)
    : (sets[0] as TriSet);
}

/** In-snapshot principals a resource policy names by ARN or unique ID. */
export function namedMembers(state: PrefixState, named: ReadonlySet<string>): PrincipalRecord[] {
  const out: PrincipalRecord[] = [];
  for (const name of named) {
    const record = state.byName.get(name);
    if (record) out.push(record);
  }
  return out;
}

export function firstUnnamed(
  members: readonly PrincipalRecord[],
  named: ReadonlySet<string>,
): PrincipalRecord | undefined {
  return members.find((m) => !named.has(m.arn) && !named.has(m.id));
}

export function createPrefixState(
  model: AccountModel,
  evaluator: AccessEvaluator,
  index: ActionIndex,
  records: readonly PrincipalRecord[],
  window: PrefixWindow,
): PrefixState {
  const groups = groupPrincipals(records, (r) =>
    policySetKey(model, evaluator.ids, index, r, window),
  );
  const classes = new Map<string, string[]>();
  const groupsByPolicy = new Map<number, string[]>();
  const specific: PrefixState["specific"] = [];
  const exact = new Map<string, number[]>();
  const seen = new Set<number>();
  const touches = (s: Statement) => index.namesActionIn(index.actionSet(s), window);
  for (const [key, members] of groups) {
    const rep = members[0] as PrincipalRecord;
    const cls = `${rep.accountId}|${rep.kind}`;
    pushTo(classes, cls, key);
    const policies: Policy[] = [
      ...rep.identityPolicies,
      ...(rep.permissionsBoundary ? [rep.permissionsBoundary] : []),
    ];
    for (const policy of policies) {
      const id = evaluator.ids.idOf(policy.statements);
      pushTo(groupsByPolicy, id, key);
      if (seen.has(id)) continue;
      seen.add(id);
      for (const s of policy.statements) {
        if (!touches(s) || isStar(s)) continue;
        const patterns = s.resource ?? s.notResource ?? [];
        // An exact ARN singles out only itself: index it instead of testing it per resource.
        if (patterns.some((p) => /[*?]|\$\{/.test(p))) specific.push({ id, statement: s });
        else for (const p of patterns) pushTo(exact, p, id);
      }
    }
  }
  const orgSpecific: Statement[] = [];
  for (const account of model.accounts.values()) {
    for (const policy of [
      ...account.serviceControlPolicies.flat(),
      ...account.resourceControlPolicies.flat(),
    ]) {
      for (const s of policy.statements) if (touches(s) && !isStar(s)) orgSpecific.push(s);
    }
  }
  const byName = new Map<string, PrincipalRecord>();
  for (const r of records) {
    byName.set(r.arn, r);
    byName.set(r.id, r);
  }
  return {
    window,
    groups,
    classes,
    groupsByPolicy,
    specific,
    exact,
    orgSpecific,
    shared: new Map(),
    byName,
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

/** Groups whose policies treat `literal` differently from the stand-in resource. */
export function singledOut(
  state: PrefixState,
  literal: string,
  generic: string,
): Set<string> | "all" {
  if (state.orgSpecific.some((s) => matchesDiffer(s, literal, generic))) return "all";
  const out = new Set<string>();
  for (const id of state.exact.get(literal) ?? []) {
    for (const key of state.groupsByPolicy.get(id) ?? []) out.add(key);
  }
  for (const { id, statement } of state.specific) {
    if (!matchesDiffer(statement, literal, generic)) continue;
    for (const key of state.groupsByPolicy.get(id) ?? []) out.add(key);
  }
  return out;
}

/** S3 object-level actions are decided on `bucket/*`, the others on the bucket. */
export function mergeObjectSets(
  state: PrefixState,
  index: ActionIndex,
  onBucket: TriSet,
  onObjects: TriSet,
): TriSet {
  const { window } = state;
  const width = window.lastWord - window.firstWord;
  if (!state.objectMask) {
    const mask = new Uint32Array(width);
    for (let i = window.start; i < window.end; i++) {
      const types = index.actions[i]?.resourceTypes ?? [];
      if (types.includes("object") && !types.includes("bucket")) {
        const bit = i - window.firstWord * 32;
        mask[bit >>> 5] = (mask[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
    state.objectMask = mask;
  }
  const mask = state.objectMask;
  const other = complementBits(mask, width);
  const pick = (a: Bits, b: Bits) =>
    unionBits([intersectBits([a, mask], width), intersectBits([b, other], width)], width);
  return {
    sure: pick(onObjects.sure, onBucket.sure),
    maybe: pick(onObjects.maybe, onBucket.maybe),
  };
}
