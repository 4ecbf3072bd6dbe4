import { serviceNameForPrefix } from "@sightline/capabilities";
import { parseArn } from "../arn/parse-arn.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import { principalOfRecord } from "../authorize/resolve-requesting-principal.ts";
import type {
  AccountModel,
  PrincipalRecord,
  ResourcePolicyRecord,
} from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { ResourceAccessSummary, ResourceRow } from "./analysis-types.ts";
import { type CapabilityLevel, capabilityLevels } from "./capability-levels.ts";
import { describeResource } from "./describe-resource.ts";
import { listExternalPrincipals, namedPrincipals } from "./external-principals.ts";
import {
  combine,
  createPrefixState,
  firstUnnamed,
  namedMembers,
  type PrefixState,
  singledOut,
  unnamedMembers,
} from "./prefix-state.ts";
import { encodeTriSets, genericResource, isEmptyIn } from "./resource-literals.ts";

export function describeResourceRow(record: ResourcePolicyRecord): ResourceRow {
  const shape = describeResource(record);
  return {
    resourceArn: record.resourceArn,
    resourceType: shape.type,
    service: serviceNameForPrefix(shape.prefix) ?? shape.prefix,
    accountId: record.accountId,
    allowsAnyPrincipal: record.policy.statements.some(
      (s) => s.effect === "Allow" && s.principal?.any === true,
    ),
  };
}

/**
 * Who holds which capability on each resource with a resource-based policy. Groups whose
 * policies do not single the resource out are evaluated against a stand-in resource plus
 * the resource policy's outcome, shared by all resources whose policy treats them alike.
 */
export function* summarizeResources(
  model: AccountModel,
  evaluator: AccessEvaluator,
  index: ActionIndex,
  records: readonly PrincipalRecord[],
  resources: readonly ResourcePolicyRecord[],
  /** Principal groups per service prefix; pass one map to reuse them across calls. */
  states = new Map<string, PrefixState>(),
): Generator<ResourceAccessSummary> {
  const callers = new Map<PrincipalRecord, RequestingPrincipal>();
  const callerOf = (r: PrincipalRecord) => {
    let c = callers.get(r);
    if (!c) {
      c = principalOfRecord(r, undefined).caller;
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
          yield* emitRows(resource, resourceType, window, unnamedMembers(state, key, named), list);
        }
      }
      for (const key of singledKeys) {
        const rep = firstUnnamed(state.groups.get(key) ?? [], named);
        if (!rep) continue;
        const sets = literals.map((l) => evaluator.evaluatePrincipal(rep, l, window));
        yield* emitRows(
          resource,
          resourceType,
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
        resourceType,
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
    const partition = parseArn(resource.resourceArn)?.partition ?? "aws";
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
  callerOf: (r: PrincipalRecord) => RequestingPrincipal,
  cls: string,
  keys: readonly string[],
  literals: readonly string[],
  generics: readonly string[],
  named: ReadonlySet<string>,
): { key: string; list: CapabilityLevel[] }[] {
  let rep: PrincipalRecord | undefined;
  for (const key of keys) {
    rep = firstUnnamed(state.groups.get(key) ?? [], named);
    if (rep) break;
  }
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

function* emitRows(
  resource: ResourcePolicyRecord,
  resourceType: ResourceAccessSummary["resourceType"],
  window: PrefixWindow,
  members: readonly PrincipalRecord[],
  levels: readonly CapabilityLevel[],
): Generator<ResourceAccessSummary> {
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
