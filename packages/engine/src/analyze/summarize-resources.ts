import { serviceNameForPrefix } from "@sightline/capabilities";
import { parseArn } from "../arn/parse-arn.ts";
import type { PrincipalRecord, ResourcePolicyRecord } from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { ResourceAccessSummary, ResourceRow } from "./analysis-types.ts";
import { type CapabilityLevel, capabilityLevels } from "./capability-levels.ts";
import { describeResource } from "./describe-resource.ts";
import { listExternalPrincipals, namedPrincipals } from "./external-principals.ts";
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
    const singledKeys = singled.includes("all")
      ? new Set(groups.membersByGroup.keys())
      : new Set(singled.flatMap((s) => [...(s as Set<string>)]));
    const rowBase: RowBase = {
      resourceArn: resource.resourceArn,
      resourceType: shape.type,
      service: window.service,
      accountId: resource.accountId,
    };
    if (!perPrincipal) {
      for (const accountKind of groups.groupsByAccountKind.keys()) {
        for (const { groupKey, levels } of sharedLevels(evaluator, resourceCase, accountKind)) {
          if (singledKeys.has(groupKey)) continue;
          yield* emitRows(rowBase, unnamedMembers(groups, groupKey, named), levels);
        }
      }
      for (const groupKey of singledKeys) {
        const rep = firstUnnamedMember(groups.membersByGroup.get(groupKey) ?? [], named);
        if (!rep) continue;
        const sets = literals.map((l) => evaluator.evaluatePrincipal(rep, l, window));
        yield* emitRows(
          rowBase,
          unnamedMembers(groups, groupKey, named),
          capabilityLevels(
            index,
            actionSetOfLiterals(groups, index, sets),
            window.firstWord,
            window,
          ),
        );
      }
    }
    for (const m of perPrincipal ? records : namedMembers(groups, named)) {
      const sets = literals.map((l) => evaluator.evaluatePrincipal(m, l, window));
      yield* emitRows(
        rowBase,
        [m],
        capabilityLevels(index, actionSetOfLiterals(groups, index, sets), window.firstWord, window),
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
      for (const level of capabilityLevels(
        index,
        actionSetOfLiterals(groups, index, sets),
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
      const levels = capabilityLevels(
        index,
        actionSetOfLiterals(groups, index, sets),
        window.firstWord,
        window,
      );
      if (levels.length > 0) shared.push({ groupKey, levels });
    }
    groups.levelsByResourceSide.set(cacheKey, shared);
  }
  return shared;
}

/** The fields of a resource's rows that do not depend on the principal. */
interface RowBase {
  resourceArn: string;
  resourceType: ResourceAccessSummary["resourceType"];
  service: string;
  /** The resource's account: members of it are `inAccount`. */
  accountId: string | undefined;
}

function* emitRows(
  row: RowBase,
  members: readonly PrincipalRecord[],
  levels: readonly CapabilityLevel[],
): Generator<ResourceAccessSummary> {
  for (const level of levels) {
    for (const m of members) {
      yield {
        resourceArn: row.resourceArn,
        resourceType: row.resourceType,
        service: row.service,
        capability: level.capability,
        principal: m.arn,
        principalType: m.kind === "user" ? "IAMUser" : "IAMRole",
        inAccount: m.accountId === row.accountId,
        conditional: level.conditional,
      };
    }
  }
}
