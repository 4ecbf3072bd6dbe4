import type { Caller } from "../authorize/caller.ts";
import { fromRecord } from "../authorize/resolve-caller.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type {
  AccountModel,
  PrincipalRecord,
  ResourcePolicyRecord,
} from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { ResourceAccessSummary, ResourceRow } from "./analysis-types.ts";
import { type Bits, complementBits, intersectBits, unionBits } from "./bits.ts";
import { type CapabilityLevel, capabilityLevels } from "./capability-levels.ts";
import { describeResource } from "./describe-resource.ts";
import { listExternalPrincipals, namedPrincipals } from "./external-principals.ts";
import { groupPrincipals, policySetKey } from "./principal-groups.ts";
import { encodeTriSets, genericResource, isEmptyIn, matchesDiffer } from "./resource-literals.ts";
import type { TriSet } from "./tri-set.ts";

export function describeResourceRow(record: ResourcePolicyRecord): ResourceRow {
  const shape = describeResource(record);
  return {
    resourceArn: record.resourceArn,
    resourceType: shape.type,
    service: shape.prefix,
    accountId: record.accountId,
    allowsAnyPrincipal: record.policy.statements.some(
      (s) => s.effect === "Allow" && s.principal?.any === true,
    ),
  };
}

/** Principals of one service prefix, grouped by the policies that matter for it. */
interface PrefixState {
  window: PrefixWindow;
  groups: Map<string, PrincipalRecord[]>;
  /** account|kind → group keys: these share how a resource policy treats unnamed principals. */
  classes: Map<string, string[]>;
  groupsByPolicy: Map<number, string[]>;
  /** Statements naming window actions on specific resources: they may single a resource out. */
  specific: { id: number; statement: Statement }[];
  orgSpecific: Statement[];
  shared: Map<string, { key: string; list: CapabilityLevel[] }[]>;
  /** Principals by ARN and by unique ID. */
  byName: Map<string, PrincipalRecord>;
  objectMask?: Uint32Array;
}

/**
 * Who holds which capability on each resource with a resource-based policy. Principals
 * are grouped by the policies relevant to the resource's service; a group whose
 * policies do not single the resource out is evaluated once against a stand-in
 * resource and the resource's own policy outcome, and that result is shared by every
 * resource whose policy treats the group's principals alike.
 */
export function* summarizeResources(
  model: AccountModel,
  evaluator: AccessEvaluator,
  index: ActionIndex,
  records: readonly PrincipalRecord[],
  resources: readonly ResourcePolicyRecord[],
): Generator<ResourceAccessSummary> {
  const states = new Map<string, PrefixState>();
  const callers = new Map<PrincipalRecord, Caller>();
  const callerOf = (r: PrincipalRecord) => {
    let c = callers.get(r);
    if (!c) {
      c = fromRecord(r, undefined).caller;
      callers.set(r, c);
    }
    return c;
  };
  for (const resource of resources) {
    const shape = describeResource(resource);
    const window = index.windows.get(shape.prefix);
    if (!window) continue;
    let state = states.get(shape.prefix);
    if (!state) {
      state = createPrefixState(model, evaluator, index, records, window);
      states.set(shape.prefix, state);
    }
    const named = namedPrincipals(resource.policy);
    const perPrincipal = evaluator.ids.isDependent(resource.policy.statements);
    const literals = shape.objectLiteral ? [shape.literal, shape.objectLiteral] : [shape.literal];
    const generics = literals.map(genericResource);
    const singled = literals.map((l, i) => singledOut(state, l, generics[i] as string));
    const singledKeys = singled.includes("all")
      ? new Set(state.groups.keys())
      : new Set(singled.flatMap((s) => [...(s as Set<string>)]));
    const resourceType = shape.type;
    const inAccount = (m: PrincipalRecord) => m.accountId === resource.accountId;
    if (!perPrincipal) {
      for (const [cls, keys] of state.classes) {
        const levels = sharedLevels(
          state,
          evaluator,
          index,
          callerOf,
          cls,
          keys,
          literals,
          generics,
          named,
        );
        for (const { key, list } of levels) {
          if (singledKeys.has(key)) continue;
          const members = unnamedMembers(state, key, named);
          for (const level of list) {
            for (const m of members) {
              yield {
                resourceArn: resource.resourceArn,
                resourceType,
                service: window.service,
                capability: level.capability,
                principal: m.arn,
                principalType: m.kind === "user" ? "IAMUser" : "IAMRole",
                inAccount: inAccount(m),
                conditional: level.conditional,
              };
            }
          }
        }
      }
      for (const key of singledKeys) {
        const rep = firstUnnamed(state.groups.get(key) ?? [], named);
        if (!rep) continue;
        const sets = literals.map((l) => evaluator.evaluatePrincipal(rep, l, window));
        yield* emitRows(
          resource,
          window,
          unnamedMembers(state, key, named),
          capabilityLevels(index, combine(state, index, sets), window.firstWord, window),
        );
      }
    }
    for (const m of perPrincipal ? records : namedMembers(state, named)) {
      const sets = literals.map((l) => evaluator.evaluatePrincipal(m, l, window));
      yield* emitRows(
        resource,
        window,
        [m],
        capabilityLevels(index, combine(state, index, sets), window.firstWord, window),
      );
    }
    const base = {
      resourceArn: resource.resourceArn,
      resourceType: shape.type,
      service: window.service,
    };
    const partition = resource.resourceArn.split(":")[1] ?? "aws";
    for (const entry of listExternalPrincipals(model, resource.policy, partition)) {
      const sets = literals.map((l) =>
        evaluator.evaluate(entry.caller, undefined, l, window, true),
      );
      for (const level of capabilityLevels(
        index,
        combine(state, index, sets),
        window.firstWord,
        window,
      )) {
        yield {
          ...base,
          capability: level.capability,
          principal: entry.principal,
          principalType: entry.principalType,
          inAccount: false,
          conditional: level.conditional,
        };
      }
    }
  }
}

/**
 * Capability levels of every group of one class (account and kind) on a resource, for
 * groups whose policies do not single the resource out. Keyed by the resource side's
 * outcome on each literal, so resources whose policies treat the class alike share it.
 */
function sharedLevels(
  state: PrefixState,
  evaluator: AccessEvaluator,
  index: ActionIndex,
  callerOf: (r: PrincipalRecord) => Caller,
  cls: string,
  keys: readonly string[],
  literals: readonly string[],
  generics: readonly string[],
  named: ReadonlySet<string>,
): { key: string; list: CapabilityLevel[] }[] {
  const rep = keys.map((k) => firstUnnamed(state.groups.get(k) ?? [], named)).find(Boolean);
  if (!rep) return [];
  const { window } = state;
  const sides = literals.map((l) => evaluator.resourceSide(callerOf(rep), rep, l, window));
  const closed = sides.every(
    (side) =>
      (rep.accountId !== side.accountId || side.mustAllow) &&
      !side.missingKeyPolicy &&
      isEmptyIn(side.layer.allow, window),
  );
  if (closed) return [];
  const sideKey = sides
    .map(
      (side, i) =>
        `${generics[i]}|${side.accountId}|${side.mustAllow}|${side.missingKeyPolicy}|${encodeTriSets(Object.values(side.layer))}`,
    )
    .join("||");
  const cacheKey = `${cls}||${sideKey}`;
  let levels = state.shared.get(cacheKey);
  if (!levels) {
    levels = [];
    for (const key of keys) {
      const member = state.groups.get(key)?.[0] as PrincipalRecord;
      const sets = sides.map((side, i) =>
        evaluator.evaluate(callerOf(member), member, generics[i] as string, window, false, side),
      );
      const list = capabilityLevels(index, combine(state, index, sets), window.firstWord, window);
      if (list.length > 0) levels.push({ key, list });
    }
    state.shared.set(cacheKey, levels);
  }
  return levels;
}

function unnamedMembers(
  state: PrefixState,
  key: string,
  named: ReadonlySet<string>,
): readonly PrincipalRecord[] {
  const all = state.groups.get(key) ?? [];
  return named.size === 0 ? all : all.filter((m) => !named.has(m.arn) && !named.has(m.id));
}

function combine(state: PrefixState, index: ActionIndex, sets: readonly TriSet[]): TriSet {
  return sets.length === 2
    ? mergeObjectSets(state, index, sets[0] as TriSet, sets[1] as TriSet)
    : (sets[0] as TriSet);
}

function* emitRows(
  resource: ResourcePolicyRecord,
  window: PrefixWindow,
  members: readonly PrincipalRecord[],
  levels: readonly CapabilityLevel[],
): Generator<ResourceAccessSummary> {
  const resourceType = describeResource(resource).type;
  for (const level of levels) {
    for (const m of members) {
      yield {
        resourceArn: resource.resourceArn,
        resourceType,
        service: window.service,
        capability: level.capability,
        principal: m.arn,
        principalType: m.kind === "user" ? "IAMUser" : "IAMRole",
        inAccount: m.accountId === resource.accountId,
        conditional: level.conditional,
      };
    }
  }
}

/** In-snapshot principals a resource policy names by ARN or unique ID. */
function namedMembers(state: PrefixState, named: ReadonlySet<string>): PrincipalRecord[] {
  const out: PrincipalRecord[] = [];
  for (const name of named) {
    const record = state.byName.get(name);
    if (record) out.push(record);
  }
  return out;
}

function firstUnnamed(
  members: readonly PrincipalRecord[],
  named: ReadonlySet<string>,
): PrincipalRecord | undefined {
  return members.find((m) => !named.has(m.arn) && !named.has(m.id));
}

function createPrefixState(
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
  const seen = new Set<number>();
  const touches = (s: Statement) => {
    const bits = index.actionSet(s);
    for (let w = window.firstWord; w < window.lastWord; w++)
      if (((bits[w] as number) & (window.ownMask[w - window.firstWord] as number)) !== 0)
        return true;
    return false;
  };
  for (const [key, members] of groups) {
    const rep = members[0] as PrincipalRecord;
    const cls = `${rep.accountId}|${rep.kind}`;
    classes.set(cls, [...(classes.get(cls) ?? []), key]);
    const policies: Policy[] = [
      ...rep.identityPolicies,
      ...(rep.permissionsBoundary ? [rep.permissionsBoundary] : []),
    ];
    for (const policy of policies) {
      const id = evaluator.ids.idOf(policy.statements);
      groupsByPolicy.set(id, [...(groupsByPolicy.get(id) ?? []), key]);
      if (seen.has(id)) continue;
      seen.add(id);
      for (const s of policy.statements)
        if (touches(s) && !isStar(s)) specific.push({ id, statement: s });
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
    orgSpecific,
    shared: new Map(),
    byName,
  };
}

function isStar(s: Statement): boolean {
  return s.resource?.every((r) => r === "*") === true;
}

/** Groups whose policies treat `literal` differently from the stand-in resource. */
function singledOut(state: PrefixState, literal: string, generic: string): Set<string> | "all" {
  if (state.orgSpecific.some((s) => matchesDiffer(s, literal, generic))) return "all";
  const out = new Set<string>();
  for (const { id, statement } of state.specific) {
    if (!matchesDiffer(statement, literal, generic)) continue;
    for (const key of state.groupsByPolicy.get(id) ?? []) out.add(key);
  }
  return out;
}

/** S3 object-level actions are decided on `bucket/*`, the others on the bucket. */
function mergeObjectSets(
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
