import type { AccessGraph, AccessNodeAttributes } from "./access-graph-types.ts";

/**
 * The graph as typed arrays for the path functions: predecessors per node (CSR), and per
 * account-trust edge A → R the principals of A that may pass through A to R.
 */
export interface Adjacency {
  keys: readonly string[];
  attributes: readonly AccessNodeAttributes[];
  index: ReadonlyMap<string, number>;
  /** 1 for account nodes of analysed accounts. */
  passThrough: Uint8Array;
  inStart: Int32Array;
  inFrom: Int32Array;
  inEdge: Int32Array;
  edgeFrom: Int32Array;
  edgeConditional: Uint8Array;
  memberStart: Int32Array;
  memberFrom: Int32Array;
  memberConditional: Uint8Array;
}

/** Edges as collected by the builder, before packing. */
export interface EdgeLists {
  from: number[];
  to: number[];
  conditional: number[];
  /** Per edge: flat [member, conditional, member, conditional, …] of pass-through principals. */
  members: (number[] | undefined)[];
}

const registry = new WeakMap<AccessGraph, Adjacency>();

export function registerAdjacency(graph: AccessGraph, adjacency: Adjacency): void {
  registry.set(graph, adjacency);
}

export function adjacencyOf(graph: AccessGraph): Adjacency {
  const adjacency = registry.get(graph);
  if (!adjacency) throw new TypeError("not an access graph made by buildAccessGraph");
  return adjacency;
}

export function packAdjacency(
  keys: readonly string[],
  index: ReadonlyMap<string, number>,
  attributes: readonly AccessNodeAttributes[],
  passThrough: Uint8Array,
  edges: EdgeLists,
): Adjacency {
  const n = keys.length;
  const m = edges.from.length;
  const inStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const slot = (edges.to[e] as number) + 1;
    inStart[slot] = (inStart[slot] as number) + 1;
  }
  for (let v = 0; v < n; v++) inStart[v + 1] = (inStart[v + 1] as number) + (inStart[v] as number);
  const fill = inStart.slice(0, n);
  const inFrom = new Int32Array(m);
  const inEdge = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    const to = edges.to[e] as number;
    const at = fill[to] as number;
    fill[to] = at + 1;
    inFrom[at] = edges.from[e] as number;
    inEdge[at] = e;
  }
  const memberStart = new Int32Array(m + 1);
  for (let e = 0; e < m; e++)
    memberStart[e + 1] = (memberStart[e] as number) + (edges.members[e]?.length ?? 0) / 2;
  const total = memberStart[m] as number;
  const memberFrom = new Int32Array(total);
  const memberConditional = new Uint8Array(total);
  for (let e = 0; e < m; e++) {
    const list = edges.members[e];
    if (!list) continue;
    let at = memberStart[e] as number;
    for (let i = 0; i < list.length; i += 2, at++) {
      memberFrom[at] = list[i] as number;
      memberConditional[at] = list[i + 1] as number;
    }
  }
  return {
    keys,
    attributes,
    index,
    passThrough,
    inStart,
    inFrom,
    inEdge,
    edgeFrom: Int32Array.from(edges.from),
    edgeConditional: Uint8Array.from(edges.conditional),
    memberStart,
    memberFrom,
    memberConditional,
  };
}

/** Predecessors of `node` reached by `via` (the edge node → next), as a range and its kind. */
export function predecessorRange(
  adj: Adjacency,
  node: number,
  via: number,
): { members: boolean; start: number; end: number } {
  if (adj.passThrough[node] === 1) {
    if (via < 0) return { members: true, start: 0, end: 0 };
    return {
      members: true,
      start: adj.memberStart[via] as number,
      end: adj.memberStart[via + 1] as number,
    };
  }
  return {
    members: false,
    start: adj.inStart[node] as number,
    end: adj.inStart[node + 1] as number,
  };
}
