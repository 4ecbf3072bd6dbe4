import type { AccessGraph } from "../graph/access-graph-types.ts";
import { adjacencyOf } from "../graph/adjacency.ts";

export interface ShortestPathOptions {
  /** Follow only edges that hold without conditions (default: conditional edges count too). */
  unconditionalOnly?: boolean;
}

/**
 * For every user and role not in `targets`, its shortest chain `[principal, …, target]`: one
 * backwards search from all targets at once; an account node is a state per role it leads to.
 */
export function shortestPathsTo(
  graph: AccessGraph,
  targets: ReadonlySet<string>,
  options: ShortestPathOptions = {},
): Map<string, string[]> {
  const adj = adjacencyOf(graph);
  const n = adj.keys.length;
  // States 0..n-1 are nodes; n + e is an account node reached through its edge e.
  const edges = adj.edgeFrom.length;
  const next = new Int32Array(n + edges).fill(-2);
  const queue = new Int32Array(n + edges);
  let head = 0;
  let tail = 0;
  for (const arn of targets) {
    const v = adj.index.get(arn);
    if (v === undefined || next[v] !== -2) continue;
    next[v] = -1;
    queue[tail++] = v;
  }
  const skip = (conditional: number) => options.unconditionalOnly === true && conditional === 1;
  while (head < tail) {
    const state = queue[head++] as number;
    if (state >= n) {
      const e = state - n;
      for (let i = adj.memberStart[e] as number; i < (adj.memberStart[e + 1] as number); i++) {
        const u = adj.memberFrom[i] as number;
        if (next[u] !== -2 || skip(adj.memberConditional[i] as number)) continue;
        next[u] = state;
        queue[tail++] = u;
      }
      continue;
    }
    for (let i = adj.inStart[state] as number; i < (adj.inStart[state + 1] as number); i++) {
      const e = adj.inEdge[i] as number;
      if (skip(adj.edgeConditional[e] as number)) continue;
      const u = adj.inFrom[i] as number;
      const reached = adj.passThrough[u] === 1 ? n + e : u;
      if (next[reached] !== -2) continue;
      next[reached] = state;
      queue[tail++] = reached;
    }
  }
  const out = new Map<string, string[]>();
  for (let v = 0; v < n; v++) {
    if (next[v] === -2 || next[v] === -1) continue;
    const key = adj.keys[v] as string;
    const kind = adj.attributes[v]?.kind;
    if (kind !== "role" && kind !== "user") continue;
    const path = [key];
    for (let s = next[v] as number; s !== -1; s = next[s] as number)
      path.push(adj.keys[s >= n ? (adj.edgeFrom[s - n] as number) : s] as string);
    out.set(key, path);
  }
  return out;
}
