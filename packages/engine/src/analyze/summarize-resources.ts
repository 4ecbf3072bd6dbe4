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
import type { GrantSource, ResourceAccessSummary, ResourceRow } from "./analysis-types.ts";
import { type CapabilityLevel, capabilityLevels } from "./capability-levels.ts";
import { describeResource } from "./describe-resource.ts";
import { listExternalPrincipals, namedPrincipals } from "./external-principals.ts";
import { GrantNames } from "./grant-names.ts";
import { appliesTo, GrantCandidates, type GrantList, StatementGrants } from "./grant-sources.ts";
import type { PolicyIds } from "./policy-traits.ts";
import { standInResource } from "./resource-literals.ts";
import { nameGroup, type RowBase, type RowBatch, withResourceGrants } from "./row-batches.ts";
import {
  actionSetOfLiterals,
  createServiceGroups,
  firstUnnamedMember,
  groupsNaming,
  groupsSinglingOut,
  namedMembers,
  type ServiceGroups,
  unnamedMembers,
} from "./service-groups.ts";
import { type ResourceCase, sharedLevels } from "./shared-levels.ts";
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
  /** The resources to summarize (`ownedResources`: with a resource-based policy, or owned buckets). */
  resources: readonly ResourcePolicyRecord[];
  /** Principal groups per service prefix; pass one map to reuse them across calls. */
  groupsByService?: Map<string, ServiceGroups>;
  /** Names the granting policies of each row (one per analysis). */
  names?: GrantNames;
}

/**
 * Who holds which capability on each resource (an owned bucket without a policy has one of no
 * statements). Groups whose policies do not single the resource out are evaluated against a
 * stand-in resource plus the resource policy's outcome, shared by resources treating them alike.
 */
export function* summarizeResources(
  evaluator: AccessEvaluator,
  input: ResourceSummaryInput,
): Generator<ResourceAccessSummary> {
  // The rows are made here, one generator frame per row; `rowBatches` yields once per group.
  for (const batch of rowBatches(evaluator, input)) {
    if (!("levels" in batch)) {
      yield batch;
      continue;
    }
    const { row, levels, naming, sources } = batch;
    const { members, classes, classOf } = naming;
    for (let k = 0; k < levels.length; k++) {
      const level = levels[k] as CapabilityLevel;
      const first = k * classes;
      for (let i = 0; i < members.length; i++) {
        const m = members[i] as PrincipalRecord;
        yield {
          resourceArn: row.resourceArn,
          resourceType: row.resourceType,
          service: row.window.service,
          capability: level.capability,
          principal: m.arn,
          principalType: m.kind === "user" ? "IAMUser" : "IAMRole",
          inAccount: m.accountId === row.accountId,
          conditional: level.conditional,
          grantedBy: sources[
            classOf ? first + (classOf[i] as number) : first
          ] as readonly GrantSource[],
        };
      }
    }
  }
}

/**
 * The rows of `summarizeResources`: a batch per group of members on a resource, and for
 * principals of other accounts that the policy names, a row each.
 */
function* rowBatches(
  evaluator: AccessEvaluator,
  input: ResourceSummaryInput,
): Generator<RowBatch | ResourceAccessSummary> {
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
    const row: RowBase = {
      resourceArn: resource.resourceArn,
      resourceType: shape.type,
      accountId: resource.accountId,
      window,
    };
    let onResource: ((policy: Policy, statement: Statement) => boolean) | undefined;
    let identityOnResource: { ids: PolicyIds; known: Map<Statement, boolean> } | undefined;
    /**
     * The resource policy's Allow statements that match `rep` and apply to the resource.
     * The policy treats the unnamed members of an account and kind alike (as `sharedLevels`
     * assumes): for them (`forClass`), the statements are listed once per resource and class.
     */
    const resourceGrantsByClass = new Map<string, StatementGrants>();
    const resourceGrantsOf = (rep: PrincipalRecord, forClass: boolean): StatementGrants => {
      const caller = callerOf(rep);
      const classKey = forClass ? `${caller.accountId}|${caller.kind}` : undefined;
      let found = classKey ? resourceGrantsByClass.get(classKey) : undefined;
      if (!found) {
        if (!perPrincipal) onResource ??= appliesTo(literals, resolverOf(rep));
        const applies = onResource ?? appliesTo(literals, resolverOf(rep));
        const matching = names
          .allowsOf(index, resource.policy)
          .filter(
            (a) =>
              matchStatementPrincipal(a.statement, caller) !== "none" &&
              applies(a.policy, a.statement),
          );
        found = new StatementGrants(index, matching, window);
        if (classKey) resourceGrantsByClass.set(classKey, found);
      }
      return found;
    };
    /**
     * The caller's identity policies' Allow statements that give `levels` (read from `set`)
     * and apply to the resource, per level. `onStandIns`: `set` is a shared outcome on
     * the stand-in resources, so are the statements.
     */
    const identityGrantsOf = (
      rep: PrincipalRecord,
      set: TriSet,
      levels: readonly CapabilityLevel[],
      onStandIns: boolean,
    ): GrantList[] => {
      identityOnResource ??= { ids: evaluator.ids, known: new Map() };
      const candidates = GrantCandidates.ofPolicies(
        names,
        index,
        rep.identityPolicies,
        set,
        window.firstWord,
        window,
        appliesTo(
          onStandIns ? standIns : literals,
          resolverOf(rep),
          onStandIns ? names.sharedApplicability(standIns) : identityOnResource,
        ),
      );
      // One list per content: groups granted by the same policies share their joined sources.
      return levels.map((level) => candidates.granting(level.capability, names));
    };
    /**
     * The batch of `members` (represented by `rep`, evaluated on the resource itself): what
     * grants each level is the resource policy's Allow statements that match the caller,
     * and the caller's identity policies' Allow statements that apply to the resource
     * (same account: either grants; across accounts both are needed, so both are listed).
     */
    const batchOf = (
      rep: PrincipalRecord,
      members: readonly PrincipalRecord[],
      set: TriSet,
      levels: readonly CapabilityLevel[],
    ): RowBatch => {
      const naming = nameGroup(names, rep, members, identityGrantsOf(rep, set, levels, false));
      const sources = withResourceGrants(names, resourceGrantsOf(rep, false), set, levels, naming);
      return { row, levels, naming, sources };
    };
    if (!perPrincipal) {
      // Groups none of whose members the policy names keep all their members.
      const naming = groupsNaming(groups, named);
      for (const accountKind of groups.groupsByAccountKind.keys()) {
        let fromResource: StatementGrants | undefined;
        for (const group of sharedLevels(evaluator, resourceCase, accountKind)) {
          if (singledKeys.has(group.groupKey)) continue;
          const members = naming.has(group.groupKey)
            ? unnamedMembers(groups, group.groupKey, named)
            : (groups.membersByGroup.get(group.groupKey) ?? []);
          const rep = members[0];
          if (!rep) continue;
          fromResource ??= resourceGrantsOf(rep, true);
          // The identity part on the stand-ins, named for the members, is kept with the
          // group's levels: shared by every resource whose policy gives the group this outcome.
          let identity = group.identityGrants;
          if (identity?.rep !== rep) {
            identity = { rep, byLevel: identityGrantsOf(rep, group.set, group.levels, true) };
            group.identityGrants = identity;
          }
          if (identity.naming?.members !== members)
            identity.naming = nameGroup(names, rep, members, identity.byLevel);
          const groupNaming = identity.naming;
          yield {
            row,
            levels: group.levels,
            naming: groupNaming,
            sources: withResourceGrants(names, fromResource, group.set, group.levels, groupNaming),
          };
        }
      }
      for (const groupKey of singledKeys) {
        const rep = firstUnnamedMember(groups.membersByGroup.get(groupKey) ?? [], named);
        if (!rep) continue;
        const sets = literals.map((l) => evaluator.evaluatePrincipal(rep, l, window));
        const set = actionSetOfLiterals(groups, index, sets);
        const levels = capabilityLevels(index, set, window.firstWord, window);
        if (levels.length === 0) continue;
        yield batchOf(rep, unnamedMembers(groups, groupKey, named), set, levels);
      }
    }
    for (const m of perPrincipal ? records : namedMembers(groups, named)) {
      const sets = literals.map((l) => evaluator.evaluatePrincipal(m, l, window));
      const set = actionSetOfLiterals(groups, index, sets);
      const levels = capabilityLevels(index, set, window.firstWord, window);
      if (levels.length === 0) continue;
      yield batchOf(m, [m], set, levels);
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
