import { serviceNameForPrefix } from "@sightline/capabilities";
import { parseArn } from "../arn/parse-arn.ts";
import { protectedRulesFor } from "../authorize/aws-protected-resources.ts";
import { matchStatementPrincipal } from "../authorize/match-principal.ts";
import { createKeyResolver } from "../authorize/request-context.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import { principalOfRecord } from "../authorize/resolve-requesting-principal.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { PrincipalRecord, ResourcePolicyRecord } from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { PrefixWindow } from "./action-index.ts";
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
import { encodeTriSets, isEmptyIn, standInResource } from "./resource-literals.ts";
import {
  actionSetOfLiterals,
  createServiceGroups,
  firstUnnamedMember,
  type GroupLevels,
  groupsSinglingOut,
  namedMembers,
  type ServiceGroups,
  unnamedMembers,
} from "./service-groups.ts";
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

/** What `summarizeResources` summarizes. */
export interface ResourceSummaryInput {
  /** Every principal that may hold access (of every account: they count in resource summaries). */
  principals: readonly PrincipalRecord[];
  /** The resources to summarize (those with a resource-based policy). */
  resources: readonly ResourcePolicyRecord[];
  /** Principal groups per service prefix; pass one map to reuse them across calls. */
  groupsByService?: Map<string, ServiceGroups>;
  /** Names the granting policies of each row (one per analysis). */
  names?: GrantNames;
}

/** One resource as its summary evaluates it. */
interface ResourceCase {
  /** The principal groups of the resource's service. */
  groups: ServiceGroups;
  /** The literals it is decided on: the resource, and for a bucket also `bucket/*`. */
  literals: readonly string[];
  /** For each literal, a stand-in resource that no policy names (`standInResource`). */
  standIns: readonly string[];
  /** ARNs and unique IDs its policy names (those principals are evaluated on their own). */
  named: ReadonlySet<string>;
}

/**
 * Who holds which capability on each resource with a resource-based policy. Groups whose
 * policies do not single the resource out are evaluated against a stand-in resource plus
 * the resource policy's outcome, shared by all resources whose policy treats them alike.
 */
export function* summarizeResources(
  evaluator: AccessEvaluator,
  input: ResourceSummaryInput,
): Generator<ResourceAccessSummary> {
  const { model, index } = evaluator;
  const { principals: records, resources } = input;
  const groupsByService = input.groupsByService ?? new Map<string, ServiceGroups>();
  const names = input.names ?? new GrantNames(evaluator.ids);
  const callers = new Map<PrincipalRecord, RequestingPrincipal>();
  const callerOf = (r: PrincipalRecord) => {
    let c = callers.get(r);
    if (!c) {
      c = principalOfRecord(r, undefined).caller;
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
    let groups = groupsByService.get(shape.prefix);
    if (!groups) {
      groups = createServiceGroups(evaluator, records, window);
      groupsByService.set(shape.prefix, groups);
    }
    const named = namedPrincipals(resource.policy);
    const perPrincipal = evaluator.ids.isDependent(resource.policy.statements);
    const literals = shape.objectLiteral ? [shape.literal, shape.objectLiteral] : [shape.literal];
    const standIns = literals.map(standInResource);
    const resourceCase: ResourceCase = { groups, literals, standIns, named };
    const singled = literals.map((l, i) => groupsSinglingOut(groups, l, standIns[i] as string));
    // A resource AWS protects while its stand-in is not (an AWS managed key the snapshot
    // lists) is evaluated as itself for every group.
    const protectedAlone = literals.some(
      (l, i) =>
        protectedRulesFor(l, model).length !==
        protectedRulesFor(standIns[i] as string, model).length,
    );
    const singledKeys =
      singled.includes("all") || protectedAlone
        ? new Set(groups.membersByGroup.keys())
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
                shared ? standIns : literals,
                resolverOf(rep),
                shared ? names.sharedApplicability(standIns) : identityOnResource,
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
      for (const accountKind of groups.groupsByAccountKind.keys()) {
        const shared = sharedLevels(evaluator, resourceCase, accountKind);
        for (const { groupKey, levels: list, set } of shared) {
          if (singledKeys.has(groupKey)) continue;
          const members = unnamedMembers(groups, groupKey, named);
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
      for (const groupKey of singledKeys) {
        const rep = firstUnnamedMember(groups.membersByGroup.get(groupKey) ?? [], named);
        if (!rep) continue;
        const sets = literals.map((l) => evaluator.evaluatePrincipal(rep, l, window));
        const set = actionSetOfLiterals(groups, index, sets);
        yield* emitRows(
          resource,
          resourceType,
          window,
          unnamedMembers(groups, groupKey, named),
          capabilityLevels(index, set, window.firstWord, window),
          names,
          rep,
          sourcesOf(rep, set),
        );
      }
    }
    for (const m of perPrincipal ? records : namedMembers(groups, named)) {
      const sets = literals.map((l) => evaluator.evaluatePrincipal(m, l, window));
      const set = actionSetOfLiterals(groups, index, sets);
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
        evaluator.evaluate({
          requester: entry.caller,
          resource: l,
          window,
          outsideAccountAllows: true,
        }),
      );
      const set = actionSetOfLiterals(groups, index, sets);
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
 * Capability levels of every group of one account and kind on a resource, for groups whose
 * policies do not single the resource out. Keyed by the resource side's outcome on each
 * literal, so resources whose policies treat the account and kind alike share it.
 */
function sharedLevels(
  evaluator: AccessEvaluator,
  resource: ResourceCase,
  accountKind: string,
): GroupLevels[] {
  const { groups, literals, standIns, named } = resource;
  const groupKeys = groups.groupsByAccountKind.get(accountKind) ?? [];
  let rep: PrincipalRecord | undefined;
  for (const key of groupKeys) {
    rep = firstUnnamedMember(groups.membersByGroup.get(key) ?? [], named);
    if (rep) break;
  }
  if (!rep) return [];
  const { window } = groups;
  const { index } = evaluator;
  const requester = evaluator.requesterOf(rep);
  const sides = literals.map((l) =>
    evaluator.resourceSide({ requester, record: rep, resource: l, window }),
  );
  const closed = sides.every(
    (side) =>
      (rep.accountId !== side.accountId || side.mustAllow) &&
      !side.missingKeyPolicy &&
      isEmptyIn(side.policyOutcome.allow, window),
  );
  if (closed) return [];
  const sideKey = sides
    .map(
      (side, i) =>
        `${standIns[i]}|${side.accountId}|${side.mustAllow}|${side.missingKeyPolicy}|${encodeTriSets(Object.values(side.policyOutcome))}`,
    )
    .join("||");
  const cacheKey = `${accountKind}||${sideKey}`;
  let shared = groups.levelsByResourceSide.get(cacheKey);
  if (!shared) {
    shared = [];
    for (const groupKey of groupKeys) {
      const member = groups.membersByGroup.get(groupKey)?.[0] as PrincipalRecord;
      const sets = sides.map((side, i) =>
        evaluator.evaluate({
          requester: evaluator.requesterOf(member),
          record: member,
          resource: standIns[i] as string,
          window,
          resourceSide: side,
        }),
      );
      const set = actionSetOfLiterals(groups, index, sets);
      const levels = capabilityLevels(index, set, window.firstWord, window);
      if (levels.length > 0) shared.push({ groupKey, levels, set });
    }
    groups.levelsByResourceSide.set(cacheKey, shared);
  }
  return shared;
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
