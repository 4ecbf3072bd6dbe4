import type { DirectedGraph } from "graphology";
import type { AuthorizationRequest } from "../authorize/authorization-request.ts";
import type { Formula } from "../logic/formula.ts";

/**
 * What a node stands for. `account` nodes are whole accounts a trust policy names;
 * `service`, `federated`, `anonymous` (`*`) and `external` (a user or role of an account
 * outside the snapshots) are leaves: nothing is known about who can become them.
 */
export type AccessNodeKind =
  | "role"
  | "user"
  | "account"
  | "service"
  | "federated"
  | "anonymous"
  | "external";

export type AccessNodeAttributes = {
  kind: AccessNodeKind;
  /** The account of a role, user, account node or external principal, when known. */
  accountId?: string;
  /** The node belongs to an analysed account (its own policies were evaluated). */
  analysed: boolean;
};

export type AssumeAction =
  | "sts:AssumeRole"
  | "sts:AssumeRoleWithWebIdentity"
  | "sts:AssumeRoleWithSAML";

/** How an evaluated request turned out: allowed, or allowed exactly when `condition` holds. */
export type EdgeGrant = {
  conditional: boolean;
  /** Present when conditional: the request is allowed exactly when this formula holds. */
  condition?: Formula;
};

/**
 * `source` can become `target`: `assume` (assume the role), `account-trust` (account node →
 * role whose trust names it), `account-member` (principal → its account node, passing to `roles` only).
 */
export type AccessEdgeAttributes =
  | ({ kind: "assume" | "account-trust"; action: AssumeAction } & EdgeGrant)
  | {
      kind: "account-member";
      /** True when every role it reaches through the account is reached only under conditions. */
      conditional: boolean;
      /** Role ARN → how this principal may assume it through the account's trust. */
      roles: ReadonlyMap<string, EdgeGrant>;
    };

export interface AccessGraphOptions {
  /** Request keys assumed for every evaluation, as in `analyzeAccount`. */
  context?: AuthorizationRequest["context"];
  /** As in `authorize`: `absent` applies AWS's missing-key rules instead of `conditional`. */
  missingKeys?: "unknown" | "absent";
}

export interface AccessGraphStats {
  nodes: number;
  edges: number;
  roles: number;
  users: number;
  accountNodes: number;
  leaves: number;
  assumeEdges: number;
  accountTrustEdges: number;
  accountMemberEdges: number;
  conditionalEdges: number;
  /** Requests decided while building (one per principal group and role, not per pair). */
  decisions: number;
}

/**
 * Who can become whom across the analysed accounts. Immutable once built: cache it per
 * set of snapshots. `graph` is a graphology graph for inspection and other algorithms;
 * treat it as read-only (the path functions use a compact copy made at build time).
 */
export interface AccessGraph {
  readonly graph: DirectedGraph<AccessNodeAttributes, AccessEdgeAttributes>;
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly stats: AccessGraphStats;
  readonly options: Readonly<AccessGraphOptions>;
}
