import { serviceNameForPrefix } from "@sightline/capabilities";
import { parseArn } from "../arn/parse-arn.ts";
import { protectedRulesFor } from "../authorize/aws-protected-resources.ts";
import type { Caller } from "../authorize/caller.ts";
import { matchStatementPrincipal } from "../authorize/match-principal.ts";
import { createKeyResolver } from "../authorize/request-context.ts";
import { fromRecord } from "../authorize/resolve-caller.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
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
  type AllowStatement,
  appliesTo,
  GrantCandidates,
  type GrantList,
  GrantNames,
} from "./grant-sources.ts";
import type { PolicyIds } from "./policy-traits.ts";
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
import { principalResolver } from "./summarize-policy-set.ts";
import type { TriSet } from "./tri-set.ts";

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
  /** Names the granting policies of each row (one per analysis). */
  names = new GrantNames(evaluator.ids),
): Generator<ResourceAccessSummary> {
  const callers = new Map<PrincipalRecord, Caller>();
  const callerOf = (r: PrincipalRecord) => {
    let c = callers.get(r);
    if (!c) {
      c = fromRecord(r, undefined).caller;
      callers.set(r, c);
    }
    return c;
  };
  const resolvers = new Map<PrincipalRecord, KeyResolver>();
  const resolverOf = (r: PrincipalRecord) => {
    let resolve = resolvers.get(r);
    if (!resolve) {
      if (resolvers.size >= 10_000) resolvers.clear();
      resolve = principalResolver(model, r, evaluator.context);
      resolvers.set(r, resolve);
    }
    return resolve;
  };
  // Identity statements that grant a group on a shared decision set (evaluated on the
  // stand-in resource): shared by every resource whose policy gives the same set.
  const sharedIdentity = new WeakMap<TriSet, Map<PrincipalRecord, GrantCandidates>>();
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
    // A resource AWS protects while its stand-in is not (an AWS managed key the snapshot
    // lists) is evaluated as itself for every group.
    const protectedAlone = literals.some(
      (l, i) =>
        protectedRulesFor(l, model).length !==
        protectedRulesFor(generics[i] as string, model).length,
    );
    const singledKeys =
      singled.includes("all") || protectedAlone
        ? new Set(state.groups.keys())
        : new Set(singled.flatMap((s) => [...(s as Set<string>)]));
    const resourceType = shape.type;
    let onResource: ((policy: Policy, statement: Statement) => boolean) | undefined;
    let identityOnResource: { ids: PolicyIds; known: Map<Statement, boolean> } | undefined;
    const matchingByClass = new Map<string, readonly AllowStatement[]>();
    /**
     * What grants each capability of `set` to the members of a group (represented by
     * `rep`): the resource policy's Allow statements that match the caller, and the
     * caller's identity policies' Allow statements that apply to the resource (same
     * account: either grants; across accounts both are needed, so both are listed).
     * `shared`: `set` is a shared outcome on the stand-in resources.
     */
    const sourcesOf = (rep: PrincipalRecord, set: TriSet, shared = false) => {
      let candidates: GrantCandidates | undefined;
      return (capability: CapabilityLevel["capability"]): GrantList => {
        if (!candidates) {
          const caller = callerOf(rep);
          if (!perPrincipal) onResource ??= appliesTo(literals, resolverOf(rep));
          const applies = onResource ?? appliesTo(literals, resolverOf(rep));
          identityOnResource ??= { ids: evaluator.ids, known: new Map() };
          // The resource policy treats the unnamed members of a class alike (as `sharedLevels`
          // assumes): its statements that match them are listed once per class.
          const classKey = shared ? `${caller.accountId}|${caller.kind}` : undefined;
          let matching = classKey ? matchingByClass.get(classKey) : undefined;
          if (!matching) {
            matching = names
              .allowsOf(index, resource.policy)
              .filter(
                (a) =>
                  matchStatementPrincipal(a.statement, caller) !== "none" &&
                  applies(a.policy, a.statement),
              );
            if (classKey) matchingByClass.set(classKey, matching);
          }
          const fromResource = GrantCandidates.find(
            index,
            matching,
            set,
            window.firstWord,
            window,
            ALWAYS,
          );
          let byRep = shared ? sharedIdentity.get(set) : undefined;
          let fromIdentity = byRep?.get(rep);
          if (!fromIdentity) {
            fromIdentity = GrantCandidates.find(
              index,
              names.allowsOf(index, rep),
              set,
              window.firstWord,
              window,
              appliesTo(
                shared ? generics : literals,
                resolverOf(rep),
                shared ? names.sharedApplicability(generics) : identityOnResource,
              ),
            );
            if (shared) {
              if (!byRep) {
                byRep = new Map();
                sharedIdentity.set(set, byRep);
              }
              byRep.set(rep, fromIdentity);
            }
          }
          candidates = fromResource.concat(fromIdentity);
        }
        return candidates.granting(capability);
      };
    };
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
        for (const { key, list, set } of levels) {
          if (singledKeys.has(key)) continue;
          const members = unnamedMembers(state, key, named);
          const rep = members[0];
          if (!rep) continue;
          yield* emitRows(
            resource,
            resourceType,
            window,
            members,
            list,
            names,
            rep,
            sourcesOf(rep, set, true),
          );
        }
      }
      for (const key of singledKeys) {
        const rep = firstUnnamed(state.groups.get(key) ?? [], named);
        if (!rep) continue;
        const sets = literals.map((l) => evaluator.evaluatePrincipal(rep, l, window));
        const set = combine(state, index, sets);
        yield* emitRows(
          resource,
          resourceType,
          window,
          unnamedMembers(state, key, named),
          capabilityLevels(index, set, window.firstWord, window),
          names,
          rep,
          sourcesOf(rep, set),
        );
      }
    }
    for (const m of perPrincipal ? records : namedMembers(state, named)) {
      const sets = literals.map((l) => evaluator.evaluatePrincipal(m, l, window));
      const set = combine(state, index, sets);
      yield* emitRows(
        resource,
        resourceType,
        window,
        [m],
        capabilityLevels(index, set, window.firstWord, window),
        names,
        m,
        sourcesOf(m, set),
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
      const set = combine(state, index, sets);
      let candidates: GrantCandidates | undefined;
      for (const level of capabilityLevels(index, set, window.firstWord, window)) {
        candidates ??= GrantCandidates.find(
          index,
          [resource.policy],
          set,
          window.firstWord,
          window,
          (policy, statement) =>
            matchStatementPrincipal(statement, entry.caller) !== "none" &&
            appliesTo(
              literals,
              createKeyResolver(
                model,
                {
                  principal: entry.caller.arn,
                  action: "",
                  resource: shape.literal,
                  ...(evaluator.context && { context: evaluator.context }),
                },
                entry.caller,
                undefined,
                resource.accountId,
              ),
            )(policy, statement),
        );
        yield {
          ...base,
          capability: level.capability,
          principal: entry.principal,
          principalType: entry.principalType,
          inAccount: false,
          conditional: level.conditional,
          grantedBy: names.convert(candidates.granting(level.capability)),
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
): { key: string; list: CapabilityLevel[]; set: TriSet }[] {
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
      const set = combine(state, index, sets);
      const list = capabilityLevels(index, set, window.firstWord, window);
      if (list.length > 0) levels.push({ key, list, set });
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
  names: GrantNames,
  rep: PrincipalRecord,
  sourcesOf: (capability: CapabilityLevel["capability"]) => GrantList,
): Generator<ResourceAccessSummary> {
  const alike = members.map((m) => names.namesAlike(rep, m));
  for (const level of levels) {
    const sources = sourcesOf(level.capability);
    for (let i = 0; i < members.length; i++) {
      const m = members[i] as PrincipalRecord;
      yield {
        resourceArn: resource.resourceArn,
        resourceType,
        service: window.service,
        capability: level.capability,
        principal: m.arn,
        principalType: m.kind === "user" ? "IAMUser" : "IAMRole",
        inAccount: m.accountId === resource.accountId,
        conditional: level.conditional,
        // Computed on first read: per resource and group of principals, named per member.
        grantedBy: names.sourcesFor(rep, m, sources, alike[i]),
      };
    }
  }
}

const ALWAYS = () => true;
