/**
 * The graph behind endpoint 12's answer for one resource: its nodes (the resource, and every
 * principal or account on a path) and its edges (who can reach whom, toward the resource). The
 * drawing and the accessible list beside it are both made from this one value.
 */

export interface AccessPathLike {
  nodes: readonly string[];
  truncated: boolean;
  cycle: boolean;
}

export type NodeKind = "resource" | "role" | "user" | "account" | "principal";

export interface GraphNode {
  id: string;
  kind: NodeKind;
  /** The account the node belongs to, when its identifier says. */
  account: string | undefined;
  label: string;
  /** A path was cut here at the node limit: more may lie beyond. */
  truncatedBeyond: boolean;
  /** A path closes a cycle at this node. */
  closesCycle: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** The edge that closes a cycle. */
  cycle: boolean;
}

export interface PathGraph {
  resource: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const ACCOUNT = /^\d{12}$/;

export function describeNode(
  id: string,
  resource: string,
): Omit<GraphNode, "truncatedBeyond" | "closesCycle"> {
  const arn = /^arn:[^:]*:[^:]*:[^:]*:(\d{12})?:(.*)$/.exec(id);
  const account = ACCOUNT.test(id) ? id : arn?.[1] || undefined;
  const rest = arn?.[2] ?? id;
  const kind: NodeKind =
    id === resource
      ? "resource"
      : ACCOUNT.test(id)
        ? "account"
        : rest.startsWith("role/")
          ? "role"
          : rest.startsWith("user/")
            ? "user"
            : "principal";
  const label = kind === "account" ? `account ${id}` : rest.split("/").at(-1) || id;
  return { id, kind, account, label };
}

export function pathGraph(resource: string, paths: readonly AccessPathLike[]): PathGraph {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const node = (id: string) => {
    let found = nodes.get(id);
    if (!found) {
      found = { ...describeNode(id, resource), truncatedBeyond: false, closesCycle: false };
      nodes.set(id, found);
    }
    return found;
  };
  const edge = (from: string, to: string, cycle: boolean) => {
    const key = `${from}\u0000${to}`;
    const found = edges.get(key);
    if (found) found.cycle ||= cycle;
    else edges.set(key, { from, to, cycle });
  };
  node(resource);
  for (const path of paths) {
    // The first node is adjacent to the resource; each later one reaches the one before it.
    path.nodes.forEach((id, i) => {
      node(id);
      const last = i === path.nodes.length - 1;
      edge(id, i === 0 ? resource : (path.nodes[i - 1] as string), path.cycle && last);
    });
    const end = path.nodes.at(-1);
    if (end !== undefined) {
      if (path.truncated) node(end).truncatedBeyond = true;
      if (path.cycle) node(end).closesCycle = true;
    }
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    resource,
    nodes: [...nodes.values()].sort(byId),
    edges: [...edges.values()].sort((a, b) =>
      a.from === b.from ? (a.to < b.to ? -1 : 1) : a.from < b.from ? -1 : 1,
    ),
  };
}
