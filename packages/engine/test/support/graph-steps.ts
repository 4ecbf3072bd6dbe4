import type { AccessEdgeAttributes, AccessGraph, EdgeGrant } from "../../src/index.ts";

/** How `from` may assume `to` in one step: a direct edge, or through its account's node. */
export function step(graph: AccessGraph, from: string, to: string): EdgeGrant | undefined {
  const g = graph.graph;
  if (g.hasEdge(from, to)) {
    const { conditional, condition } = g.getEdgeAttributes(from, to) as EdgeGrant;
    return { conditional, ...(condition && { condition }) };
  }
  const account = g.hasNode(from) ? g.getNodeAttribute(from, "accountId") : undefined;
  if (!account || !g.hasEdge(from, account) || !g.hasEdge(account, to)) return undefined;
  const member = g.getEdgeAttributes(from, account) as Extract<
    AccessEdgeAttributes,
    { kind: "account-member" }
  >;
  return member.roles.get(to);
}
