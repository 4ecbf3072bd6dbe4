import type { Capability } from "@sightline/capabilities";
import type { AccessGraph } from "../graph/access-graph-types.ts";
import type { Adjacency } from "../graph/adjacency.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import type { AccessTarget } from "./access-target.ts";
import { capabilityHolders, type Holders } from "./capability-holders.ts";
import type { RootNode } from "./enumerate-paths.ts";
import type { ResolvedQuery } from "./path-query.ts";

/**
 * The nodes holding the capabilities (`OR`: any; `AND`: all). STS `use-resource` is the
 * graph's edges into the role; other capabilities come from the analysis's resource evaluation.
 */
export function adjacentNodes(
  graph: AccessGraph,
  adj: Adjacency,
  model: AccountModel,
  target: AccessTarget,
  query: ResolvedQuery,
): RootNode[] {
  let holders: Holders | undefined;
  const perCapability = query.capabilities.map((capability) => {
    if (query.service === "STS" && capability === "use-resource")
      return assumers(adj, target.record.resourceArn);
    holders ??= capabilityHolders(model, graph.options, target.record);
    return fromHolders(adj, holders, capability);
  });
  const [first, ...rest] = perCapability;
  const out = new Map<string, RootNode>(first);
  if (query.operator === "AND") {
    for (const [label, root] of out) {
      const others = rest.map((m) => m.get(label));
      if (others.some((o) => o === undefined)) out.delete(label);
      else if (others.some((o) => o?.conditional)) out.set(label, { ...root, conditional: true });
    }
    return [...out.values()];
  }
  for (const map of rest) {
    for (const [label, root] of map) {
      const seen = out.get(label);
      if (!seen) out.set(label, root);
      else if (seen.conditional && !root.conditional)
        out.set(label, { ...seen, conditional: false });
    }
  }
  return [...out.values()];
}

function assumers(adj: Adjacency, roleArn: string): Map<string, RootNode> {
  const out = new Map<string, RootNode>();
  const t = adj.index.get(roleArn);
  if (t === undefined) return out;
  for (let i = adj.inStart[t] as number; i < (adj.inStart[t + 1] as number); i++) {
    const node = adj.inFrom[i] as number;
    const via = adj.inEdge[i] as number;
    const label = adj.keys[node] as string;
    out.set(label, { node, label, via, conditional: adj.edgeConditional[via] === 1 });
  }
  return out;
}

function fromHolders(
  adj: Adjacency,
  holders: Holders,
  capability: Capability,
): Map<string, RootNode> {
  const out = new Map<string, RootNode>();
  for (const [label, conditional] of holders.get(capability) ?? []) {
    const node = adj.index.get(label) ?? -1;
    out.set(label, { node, label, via: -1, conditional });
  }
  return out;
}
