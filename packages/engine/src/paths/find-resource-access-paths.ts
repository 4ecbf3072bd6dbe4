import type { AccessGraph } from "../graph/access-graph-types.ts";
import { adjacencyOf } from "../graph/adjacency.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import { resolveTarget } from "./access-target.ts";
import { adjacentNodes } from "./adjacent-nodes.ts";
import { enumeratePaths } from "./enumerate-paths.ts";
import {
  type AccessPath,
  type AccessPathQuery,
  type AccessPathStream,
  type ResourceAccessPaths,
  resolveQuery,
} from "./path-query.ts";

/**
 * Endpoint 12's entries for one resource (contract 2.6, 4.10), produced while iterated.
 * `model` is the graph's own. A query outside the contract's limits throws a RangeError.
 */
export function streamResourceAccessPaths(
  graph: AccessGraph,
  model: AccountModel,
  resourceId: string,
  query: AccessPathQuery,
): AccessPathStream {
  const resolved = resolveQuery(query);
  const target = resolveTarget(model, resourceId, resolved.service);
  const adj = adjacencyOf(graph);
  const roots = target.matchesService ? adjacentNodes(graph, adj, model, target, resolved) : [];
  const targetNode = resolved.service === "STS" ? (adj.index.get(resourceId) ?? -1) : -1;
  return {
    resourceType: target.resourceType,
    paths: enumeratePaths(adj, roots, targetNode, resolved.maxNodes, resolved.maxEntries),
  };
}

/** `streamResourceAccessPaths`, collected: at most `maxEntries` entries. */
export function findResourceAccessPaths(
  graph: AccessGraph,
  model: AccountModel,
  resourceId: string,
  query: AccessPathQuery,
): ResourceAccessPaths {
  const { resourceType, paths } = streamResourceAccessPaths(graph, model, resourceId, query);
  const accessPaths: AccessPath[] = [];
  for (;;) {
    const next = paths.next();
    if (next.done) return { resourceType, accessPaths, complete: next.value.complete };
    accessPaths.push(next.value);
  }
}
