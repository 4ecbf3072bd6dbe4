import { type Formula, TRUE } from "../logic/formula.ts";
import type {
  AccessEdgeAttributes,
  AccessGraph,
  AccessGraphOptions,
  AccessGraphStats,
  AccessNodeAttributes,
  AssumeAction,
  EdgeGrant,
} from "./access-graph-types.ts";
import { type EdgeLists, packAdjacency, registerAdjacency } from "./adjacency.ts";
import { toGraphology } from "./graphology-view.ts";

const ALLOWED: EdgeGrant = Object.freeze({ conditional: false });

/** TRUE → allowed, FALSE → no grant, anything else → allowed under that condition. */
export function grantOf(decision: Formula): EdgeGrant | undefined {
  if (decision.kind === "false") return undefined;
  return decision === TRUE || decision.kind === "true"
    ? ALLOWED
    : { conditional: true, condition: decision };
}

/**
 * Collects nodes and edges while the trust policies are evaluated, then packs them into
 * the graphology graph and the compact adjacency the path functions walk.
 */
export class GraphBuilder {
  private readonly keys: string[] = [];
  private readonly attributes: AccessNodeAttributes[] = [];
  private readonly index = new Map<string, number>();
  private readonly edges: EdgeLists = { from: [], to: [], conditional: [], members: [] };
  private readonly edgeAttributes: AccessEdgeAttributes[] = [];
  /** Member → (role ARN → grant) for the member's pass-through edge to its account node. */
  private readonly memberRoles = new Map<number, Map<string, EdgeGrant>>();
  private readonly sharedAttributes = new Map<string, AccessEdgeAttributes>();
  decisions = 0;

  node(key: string, attributes: AccessNodeAttributes): number {
    const known = this.index.get(key);
    if (known !== undefined) return known;
    const i = this.keys.length;
    this.keys.push(key);
    this.attributes.push(attributes);
    this.index.set(key, i);
    return i;
  }

  private currentTarget = -1;
  private readonly currentSources = new Set<number>();

  /**
   * Adds `from → to` and returns its index (for pass-through members), or -1 when the
   * edge exists already (one key naming two kinds of principal). Edges into one role
   * are added together, so duplicates are checked per role.
   */
  edge(
    from: number,
    to: number,
    kind: "assume" | "account-trust",
    action: AssumeAction,
    grant: EdgeGrant,
  ): number {
    if (to !== this.currentTarget) {
      this.currentTarget = to;
      this.currentSources.clear();
    }
    if (this.currentSources.has(from)) return -1;
    this.currentSources.add(from);
    const e = this.edges.from.length;
    this.edges.from.push(from);
    this.edges.to.push(to);
    this.edges.conditional.push(grant.conditional ? 1 : 0);
    this.edges.members.push(undefined);
    this.edgeAttributes.push(this.attributesOf(kind, action, grant));
    return e;
  }

  /** `member` may pass through the account node of edge `e` (account → role) to that role. */
  member(e: number, member: number, roleArn: string, grant: EdgeGrant): void {
    let list = this.edges.members[e];
    if (!list) {
      list = [];
      this.edges.members[e] = list;
    }
    list.push(member, grant.conditional ? 1 : 0);
    let roles = this.memberRoles.get(member);
    if (!roles) {
      roles = new Map();
      this.memberRoles.set(member, roles);
    }
    roles.set(roleArn, grant);
  }

  finish(options: AccessGraphOptions): AccessGraph {
    const stats: AccessGraphStats = {
      nodes: this.keys.length,
      edges: this.edges.from.length + this.memberRoles.size,
      roles: 0,
      users: 0,
      accountNodes: 0,
      leaves: 0,
      assumeEdges: 0,
      accountTrustEdges: 0,
      accountMemberEdges: this.memberRoles.size,
      conditionalEdges: 0,
      decisions: this.decisions,
    };
    const passThrough = new Uint8Array(this.keys.length);
    this.attributes.forEach((a, v) => {
      if (a.kind === "role") stats.roles++;
      else if (a.kind === "user") stats.users++;
      else if (a.kind === "account") stats.accountNodes++;
      else stats.leaves++;
      if (a.kind === "account" && a.analysed) passThrough[v] = 1;
    });
    for (const a of this.edgeAttributes) {
      if (a.kind === "assume") stats.assumeEdges++;
      else stats.accountTrustEdges++;
      if (a.conditional) stats.conditionalEdges++;
    }
    const memberEdges = [...this.memberRoles].map(([member, roles]) => {
      const conditional = [...roles.values()].every((g) => g.conditional);
      if (conditional) stats.conditionalEdges++;
      return { member, roles, conditional };
    });
    const adjacency = packAdjacency(
      this.keys,
      this.index,
      this.attributes,
      passThrough,
      this.edges,
    );
    const view = {
      keys: this.keys,
      attributes: this.attributes,
      edges: this.edges,
      edgeAttributes: this.edgeAttributes,
      memberEdges,
    };
    let graph: AccessGraph["graph"] | undefined;
    const accessGraph: AccessGraph = Object.freeze({
      // The path functions walk `adjacency`; the graphology view is made when first asked for.
      get graph() {
        graph ??= toGraphology(view);
        return graph;
      },
      nodeCount: stats.nodes,
      edgeCount: stats.edges,
      stats: Object.freeze(stats),
      options: Object.freeze({ ...options }),
    });
    registerAdjacency(accessGraph, adjacency);
    return accessGraph;
  }

  /** Unconditional edges share one frozen attributes object per kind and action. */
  private attributesOf(
    kind: "assume" | "account-trust",
    action: AssumeAction,
    grant: EdgeGrant,
  ): AccessEdgeAttributes {
    if (grant.conditional) return Object.freeze({ kind, action, ...grant });
    const key = `${kind}|${action}`;
    let shared = this.sharedAttributes.get(key);
    if (!shared) {
      shared = Object.freeze({ kind, action, conditional: false });
      this.sharedAttributes.set(key, shared);
    }
    return shared;
  }
}
