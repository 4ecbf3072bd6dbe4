import type { Capability } from "@sightline/capabilities";
import { AccessEvaluator } from "../analyze/access-evaluator.ts";
import type { ActionIndex } from "../analyze/action-index.ts";
import { sharedIndex } from "../analyze/analyze-account.ts";
import type { ServiceGroups } from "../analyze/service-groups.ts";
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
 * Who holds which capability on one resource, by the analysis's resource summaries: a bucket
 * or key without a supplied policy is summarized as one whose policy has no statements.
 */
export function capabilityHolders(
  model: AccountModel,
  options: AccessGraphOptions,
  record: ResourcePolicyRecord,
): Holders {
  const ws = workspaceOf(model, options);
  const holders: Holders = new Map();
  for (const row of summarizeResources(ws.evaluator, {
    principals: ws.records,
    resources: [record],
    groupsByService: ws.groupsByService,
  })) {
    let map = holders.get(row.capability);
    if (!map) {
      map = new Map();
      holders.set(row.capability, map);
    }
    map.set(row.principal, (map.get(row.principal) ?? true) && row.conditional);
  }
  return holders;
}
