import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import { capabilityLevels } from "./capability-levels.ts";
import { encodeTriSets, isEmptyIn } from "./resource-literals.ts";
import {
  actionSetOfLiterals,
  firstUnnamedMember,
  type GroupLevels,
  type ServiceGroups,
} from "./service-groups.ts";

/** One resource as its summary evaluates it. */
export interface ResourceCase {
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
 * Capability levels of every group of one account and kind on a resource, for groups whose
 * policies do not single the resource out. Keyed by the resource side's outcome on each
 * literal, so resources whose policies treat the account and kind alike share it.
 */
export function sharedLevels(
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
  // A bucket of unknown owner may be the caller's: its same-account answer is conditional.
  const closed = sides.every(
    (side) =>
      (rep.accountId !== side.accountId || side.mustAllow) &&
      !side.missingKeyPolicy &&
      !side.ownerUnknown &&
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
