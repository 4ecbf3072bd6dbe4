import type { DirectedGraph } from "graphology";
import graphology from "graphology";
import type {
  AccessEdgeAttributes,
  AccessNodeAttributes,
  EdgeGrant,
} from "./access-graph-types.ts";
import type { EdgeLists } from "./adjacency.ts";

export interface GraphParts {
  keys: readonly string[];
  attributes: readonly AccessNodeAttributes[];
  edges: EdgeLists;
  edgeAttributes: readonly AccessEdgeAttributes[];
  memberEdges: readonly {
    member: number;
    roles: ReadonlyMap<string, EdgeGrant>;
    conditional: boolean;
  }[];
}

/**
 * The access graph as a graphology graph, for inspection and graphology's algorithms.
 * Made on demand: for 100,000 roles it costs seconds and hundreds of MiB that the path
 * functions, which walk the packed adjacency, do not need.
 */
export function toGraphology(
  parts: GraphParts,
): DirectedGraph<AccessNodeAttributes, AccessEdgeAttributes> {
  const graph: DirectedGraph<AccessNodeAttributes, AccessEdgeAttributes> =
    new graphology.DirectedGraph({ allowSelfLoops: true });
  const { keys, attributes, edges } = parts;
  for (let i = 0; i < keys.length; i++)
    graph.addNode(keys[i] as string, attributes[i] as AccessNodeAttributes);
  for (let e = 0; e < edges.from.length; e++) {
    graph.addDirectedEdgeWithKey(
      `e${e}`,
      keys[edges.from[e] as number],
      keys[edges.to[e] as number],
      parts.edgeAttributes[e] as AccessEdgeAttributes,
    );
  }
  for (const { member, roles, conditional } of parts.memberEdges) {
    const account = attributes[member]?.accountId as string;
    graph.addDirectedEdgeWithKey(`m${member}`, keys[member], account, {
      kind: "account-member",
      conditional,
      roles,
    });
  }
  return graph;
}
