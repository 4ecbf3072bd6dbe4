import type { Capability } from "@sightline/capabilities";
import { AccessEvaluator } from "../analyze/access-evaluator.ts";
import type { ActionIndex } from "../analyze/action-index.ts";
import { sharedIndex } from "../analyze/analyze-account.ts";
import { capabilityLevels } from "../analyze/capability-levels.ts";
import { describeResource } from "../analyze/describe-resource.ts";
import {
  actionSetOfLiterals,
  createServiceGroups,
  type ServiceGroups,
} from "../analyze/service-groups.ts";
import { summarizeResources } from "../analyze/summarize-resources.ts";
import type { AccessGraphOptions } from "../graph/access-graph-types.ts";
import type {
  AccountModel,
  PrincipalRecord,
  ResourcePolicyRecord,
} from "../snapshot/account-model.ts";

/** Capability → principal (ARN, account ID, `*`, service, provider) → held only under conditions. */
export type Holders = Map<Capability, Map<string, boolean>>;

interface Workspace {
  index: ActionIndex;
  evaluator: AccessEvaluator;
  records: PrincipalRecord[];
  /** Principal groups per service prefix, formed once per workspace. */
  groupsByService: Map<string, ServiceGroups>;
}

/** Evaluation state kept per model and context: principal groups are formed once, not per query. */
const workspaces = new WeakMap<AccountModel, Map<string, Workspace>>();

function workspaceOf(model: AccountModel, options: AccessGraphOptions): Workspace {
  let byContext = workspaces.get(model);
  if (!byContext) {
    byContext = new Map();
    workspaces.set(model, byContext);
  }
  const key = JSON.stringify(options.context ?? {});
  let ws = byContext.get(key);
  if (!ws) {
    const index = sharedIndex();
    ws = {
      index,
      evaluator: new AccessEvaluator(model, index, options.context),
      records: [...model.principals.values()],
      groupsByService: new Map(),
    };
    byContext.set(key, ws);
  }
  return ws;
}

/**
 * Who holds which capability on one resource, by the analysis's resource summaries; a bucket
 * or key without a supplied policy has no summary rows, so its principal groups are evaluated.
 */
export function capabilityHolders(
  model: AccountModel,
  options: AccessGraphOptions,
  record: ResourcePolicyRecord,
  hasPolicy: boolean,
): Holders {
  const ws = workspaceOf(model, options);
  const holders: Holders = new Map();
  const add = (capability: Capability, principal: string, conditional: boolean) => {
    let map = holders.get(capability);
    if (!map) {
      map = new Map();
      holders.set(capability, map);
    }
    map.set(principal, (map.get(principal) ?? true) && conditional);
  };
  if (hasPolicy) {
    for (const row of summarizeResources(ws.evaluator, {
      principals: ws.records,
      resources: [record],
      groupsByService: ws.groupsByService,
    }))
      add(row.capability, row.principal, row.conditional);
    return holders;
  }
  const shape = describeResource(record);
  const window = ws.index.windows.get(shape.prefix);
  if (!window) return holders;
  let groups = ws.groupsByService.get(shape.prefix);
  if (!groups) {
    groups = createServiceGroups(ws.evaluator, ws.records, window);
    ws.groupsByService.set(shape.prefix, groups);
  }
  const literals = shape.objectLiteral ? [shape.literal, shape.objectLiteral] : [shape.literal];
  // Without a resource policy, members of a group share every input of the decision.
  for (const members of groups.membersByGroup.values()) {
    const rep = members[0] as PrincipalRecord;
    const sets = literals.map((l) => ws.evaluator.evaluatePrincipal(rep, l, window));
    const levels = capabilityLevels(
      ws.index,
      actionSetOfLiterals(groups, ws.index, sets),
      window.firstWord,
      window,
    );
    for (const level of levels)
      for (const m of members) add(level.capability, m.arn, level.conditional);
  }
  return holders;
}
