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
import { describeResource, type ResourceShape } from "./describe-resource.ts";
import {
  listExternalPrincipals,
  namedPrincipals,
  reachableAccounts,
} from "./external-principals.ts";
import { groupPrincipals, policySetKey } from "./principal-groups.ts";
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

/**
 * Who holds which capability on each resource with a resource-based policy: principals
 * of the analysed accounts (grouped by the policies that matter for the resource's
 * service, each group evaluated once) and the outside principals the policy names.
 */
export function* summarizeResources(
  model: AccountModel,
  evaluator: AccessEvaluator,
  index: ActionIndex,
  records: readonly PrincipalRecord[],
  resources: readonly ResourcePolicyRecord[],
): Generator<ResourceAccessSummary> {
  const bucketsByPrefix = new Map<string, Map<string, PrincipalRecord[]>>();
  const objectMasks = new Map<string, Uint32Array>();
  for (const resource of resources) {
    const shape = describeResource(resource);
    const window = index.windows.get(shape.prefix);
    if (!window) continue;
    let buckets = bucketsByPrefix.get(shape.prefix);
    if (!buckets) {
      buckets = groupPrincipals(records, (r) =>
        policySetKey(model, evaluator.ids, index, r, window),
      );
      bucketsByPrefix.set(shape.prefix, buckets);
    }
    const service = window.service;
    const base = { resourceArn: resource.resourceArn, resourceType: shape.type, service };
    const named = namedPrincipals(resource.policy);
    const reachable = reachableAccounts(resource.policy);
    const perPrincipal = evaluator.ids.isDependent(resource.policy.statements);
    const mustAllow = shape.type === "IAMRole" || shape.type === "KMSKey";
    const evaluateSet = (rep: PrincipalRecord) =>
      decisionFor(shape, window, index, objectMasks, (literal) =>
        evaluator.evaluatePrincipal(rep, literal, window),
      );
    for (const members of buckets.values()) {
      const shared: PrincipalRecord[] = [];
      for (const member of members) {
        if (perPrincipal || named.has(member.arn) || named.has(member.id))
          yield* rowsFor([member], evaluateSet(member));
        else shared.push(member);
      }
      const rep = shared[0];
      if (!rep) continue;
      const accountReachable = reachable === undefined || reachable.has(rep.accountId);
      const cross = rep.accountId !== resource.accountId;
      if (!accountReachable && (cross || mustAllow)) continue;
      yield* rowsFor(shared, evaluateSet(rep));
    }
    const partition = resource.resourceArn.split(":")[1] ?? "aws";
    for (const entry of listExternalPrincipals(model, resource.policy, partition)) {
      const set = decisionFor(shape, window, index, objectMasks, (literal) =>
        evaluator.evaluate(entry.caller, undefined, literal, window, true),
      );
      for (const level of capabilityLevels(index, set, window.firstWord, window)) {
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

    function* rowsFor(
      members: readonly PrincipalRecord[],
      set: TriSet,
    ): Generator<ResourceAccessSummary> {
      const levels = capabilityLevels(index, set, window?.firstWord ?? 0, window as PrefixWindow);
      for (const level of levels) {
        for (const m of members) {
          yield {
            ...base,
            capability: level.capability,
            principal: m.arn,
            principalType: m.kind === "user" ? "IAMUser" : "IAMRole",
            inAccount: m.accountId === resource.accountId,
            conditional: level.conditional,
          };
        }
      }
    }
  }
}

/** Decision sets for the resource; S3 object-level actions are decided on `bucket/*`. */
function decisionFor(
  shape: ResourceShape,
  window: PrefixWindow,
  index: ActionIndex,
  objectMasks: Map<string, Uint32Array>,
  evaluate: (literal: string) => TriSet,
): TriSet {
  const onResource = evaluate(shape.literal);
  if (!shape.objectLiteral) return onResource;
  const onObjects = evaluate(shape.objectLiteral);
  const width = window.lastWord - window.firstWord;
  const mask = objectMaskFor(window, index, objectMasks);
  const other = complementBits(mask, width);
  const pick = (a: Bits, b: Bits) =>
    unionBits([intersectBits([a, mask], width), intersectBits([b, other], width)], width);
  return {
    sure: pick(onObjects.sure, onResource.sure),
    maybe: pick(onObjects.maybe, onResource.maybe),
  };
}

/** Actions of the window that act on objects only (resource type `object`, not `bucket`). */
function objectMaskFor(
  window: PrefixWindow,
  index: ActionIndex,
  cache: Map<string, Uint32Array>,
): Uint32Array {
  let mask = cache.get(window.prefix);
  if (!mask) {
    mask = new Uint32Array(window.lastWord - window.firstWord);
    for (let i = window.start; i < window.end; i++) {
      const types = index.actions[i]?.resourceTypes ?? [];
      if (types.includes("object") && !types.includes("bucket")) {
        const bit = i - window.firstWord * 32;
        mask[bit >>> 5] = (mask[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
    cache.set(window.prefix, mask);
  }
  return mask;
}
