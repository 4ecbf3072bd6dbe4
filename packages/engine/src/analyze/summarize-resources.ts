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
import { capabilityLevels } from "./capability-levels.ts";
import { describeResource } from "./describe-resource.ts";
import { listExternalPrincipals, namedPrincipals } from "./external-principals.ts";
import { groupPrincipals, policySetKey } from "./principal-groups.ts";
import { encodeTriSets, genericResource, isEmptyIn, matchesDiffer } from "./resource-literals.ts";
import { TRI_FALSE, type TriSet } from "./tri-set.ts";

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
  shared: Map<string, Map<string, TriSet>>;
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
    const perGroup = new Map<string, TriSet[]>();
    const individual = new Map<PrincipalRecord, TriSet[]>();
    literals.forEach((literal, li) => {
      const put = (key: string, set: TriSet) => {
        const sets = perGroup.get(key) ?? literals.map(() => TRI_FALSE);
        sets[li] = set;
        perGroup.set(key, sets);
      };
      const generic = genericResource(literal);
      const specificGroups = singledOut(state, literal, generic);
      for (const [cls, keys] of state.classes) {
        const rep =
          firstUnnamed(state.groups.get(keys[0] ?? "") ?? [], named) ??
          keys.map((k) => firstUnnamed(state.groups.get(k) ?? [], named)).find(Boolean);
        if (!rep || perPrincipal) continue;
        const side = evaluator.resourceSide(callerOf(rep), rep, literal, window);
        const cross = rep.accountId !== side.accountId;
        if (
          (cross || side.mustAllow) &&
          isEmptyIn(side.layer.allow, window) &&
          !side.missingKeyPolicy
        )
          continue;
        const layerKey = `${generic}|${side.accountId}|${side.mustAllow}|${side.missingKeyPolicy}|${cls}|${encodeTriSets(Object.values(side.layer))}`;
        let results = state.shared.get(layerKey);
        if (!results) {
          results = new Map();
          for (const key of keys) {
            const member = state.groups.get(key)?.[0] as PrincipalRecord;
            const set = evaluator.evaluate(callerOf(member), member, generic, window, false, side);
            if (!isEmptyIn(set, window)) results.set(key, set);
          }
          state.shared.set(layerKey, results);
        }
        for (const [key, set] of results)
          if (specificGroups !== "all" && !specificGroups.has(key)) put(key, set);
      }
      for (const members of state.groups.values()) {
        for (const m of members) {
          if (!perPrincipal && !named.has(m.arn) && !named.has(m.id)) continue;
          const sets = individual.get(m) ?? literals.map(() => TRI_FALSE);
          sets[li] = evaluator.evaluatePrincipal(m, literal, window);
          individual.set(m, sets);
        }
      }
      if (perPrincipal) return;
      const keys = specificGroups === "all" ? [...state.groups.keys()] : [...specificGroups];
      for (const key of keys) {
        const rep = firstUnnamed(state.groups.get(key) ?? [], named);
        if (rep) put(key, evaluator.evaluatePrincipal(rep, literal, window));
      }
    });
    const base = {
      resourceArn: resource.resourceArn,
      resourceType: shape.type,
      service: window.service,
    };
    for (const [key, sets] of perGroup) {
      const members = (state.groups.get(key) ?? []).filter(
        (m) => !named.has(m.arn) && !named.has(m.id),
      );
      yield* emitRows(state, index, resource, members, sets);
    }
    for (const [member, sets] of individual)
      yield* emitRows(state, index, resource, [member], sets);
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

function combine(state: PrefixState, index: ActionIndex, sets: readonly TriSet[]): TriSet {
  return sets.length === 2
    ? mergeObjectSets(state, index, sets[0] as TriSet, sets[1] as TriSet)
    : (sets[0] as TriSet);
}

function* emitRows(
  state: PrefixState,
  index: ActionIndex,
  resource: ResourcePolicyRecord,
  members: readonly PrincipalRecord[],
  sets: readonly TriSet[],
): Generator<ResourceAccessSummary> {
  const { window } = state;
  const resourceType = describeResource(resource).type;
  for (const level of capabilityLevels(
    index,
    combine(state, index, sets),
    window.firstWord,
    window,
  )) {
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
  return { window, groups, classes, groupsByPolicy, specific, orgSpecific, shared: new Map() };
}

function isStar(s: Statement): boolean {
  return s.resource !== undefined && s.resource.every((r) => r === "*");
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
