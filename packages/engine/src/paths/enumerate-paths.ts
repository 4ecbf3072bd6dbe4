import type { Adjacency } from "../graph/adjacency.ts";
import type { AccessPath } from "./path-query.ts";

/** A node adjacent to the resource: a graph node, or (-1) a principal the graph lacks, by label. */
export interface RootNode {
  node: number;
  label: string;
  /** For an account node: the edge account → role it stands on, which decides its members. */
  via: number;
  conditional: boolean;
}

const ROOTS = 0;
const IN_EDGES = 1;
const MEMBERS = 2;

/**
 * Every path into the resource, depth first: each visit is an entry, a repeated node closes
 * a cycle entry, a full path with predecessors left is truncated. Work per entry, memory one path.
 */
export function* enumeratePaths(
  adj: Adjacency,
  roots: readonly RootNode[],
  target: number,
  maxNodes: number,
  maxEntries: number,
): Generator<AccessPath, { complete: boolean }> {
  const onPath = new Uint8Array(adj.keys.length);
  const path = new Int32Array(maxNodes);
  const conditionalSteps = new Int32Array(maxNodes);
  const kind = new Uint8Array(maxNodes);
  const pos = new Int32Array(maxNodes);
  const end = new Int32Array(maxNodes);
  let rootLabel = "";
  const label = (v: number) => (v < 0 ? rootLabel : (adj.keys[v] as string));
  const nodesOf = (length: number, last?: number) => {
    const nodes = new Array<string>(last === undefined ? length : length + 1);
    for (let i = 0; i < length; i++) nodes[i] = label(path[i] as number);
    if (last !== undefined) nodes[length] = label(last);
    return nodes;
  };
  let count = 0;
  let depth = 0;
  end[0] = roots.length;
  for (;;) {
    if ((pos[depth] as number) >= (end[depth] as number)) {
      if (depth === 0) return { complete: true };
      depth--;
      onPath[path[depth] as number] = 0;
      continue;
    }
    const i = pos[depth] as number;
    pos[depth] = i + 1;
    let p: number;
    let via = -1;
    let stepConditional: number;
    if (kind[depth] === ROOTS) {
      const root = roots[i] as RootNode;
      p = root.node;
      via = root.via;
      stepConditional = root.conditional ? 1 : 0;
      rootLabel = root.label;
    } else if (kind[depth] === IN_EDGES) {
      p = adj.inFrom[i] as number;
      via = adj.inEdge[i] as number;
      stepConditional = adj.edgeConditional[via] as number;
    } else {
      p = adj.memberFrom[i] as number;
      stepConditional = adj.memberConditional[i] as number;
    }
    const conditional = (depth > 0 ? (conditionalSteps[depth - 1] as number) : 0) + stepConditional;
    if (count === maxEntries) return { complete: false };
    count++;
    if (p >= 0 && (p === target || onPath[p] === 1)) {
      yield {
        nodes: nodesOf(depth, p),
        truncated: false,
        cycle: true,
        conditional: conditional > 0,
      };
      continue;
    }
    path[depth] = p;
    conditionalSteps[depth] = conditional;
    let nextKind = IN_EDGES;
    let start = 0;
    let stop = 0;
    if (p >= 0 && adj.passThrough[p] === 1) {
      nextKind = MEMBERS;
      if (via >= 0) {
        start = adj.memberStart[via] as number;
        stop = adj.memberStart[via + 1] as number;
      }
    } else if (p >= 0) {
      start = adj.inStart[p] as number;
      stop = adj.inStart[p + 1] as number;
    }
    const last = depth + 1 === maxNodes;
    yield {
      nodes: nodesOf(depth + 1),
      truncated: last && stop > start,
      cycle: false,
      conditional: conditional > 0,
    };
    if (last || stop === start) continue;
    onPath[p] = 1;
    depth++;
    kind[depth] = nextKind;
    pos[depth] = start;
    end[depth] = stop;
  }
}
