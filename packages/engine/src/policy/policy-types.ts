/** Where a policy comes from; decides how AWS combines it with the others. */
export type PolicyType =
  | "identity"
  | "permissions-boundary"
  /** An assumed-role session's session policy (inline or managed), given with the request. */
  | "session"
  | "scp"
  | "rcp"
  | "resource"
  | "role-trust"
  | "kms-key";

export type Effect = "Allow" | "Deny";

/** The Principal (or NotPrincipal) element, normalised to lists per kind. */
export interface PrincipalSet {
  /** `"Principal": "*"` or `{"AWS": "*"}`: everyone, including anonymous callers. */
  any: boolean;
  aws: readonly string[];
  service: readonly string[];
  federated: readonly string[];
  canonicalUser: readonly string[];
}

/** One operator/key pair of a Condition block, e.g. `StringEquals` on `aws:username`. */
export interface ConditionClause {
  /** As written, e.g. `ForAnyValue:StringLikeIfExists`. */
  operator: string;
  key: string;
  values: readonly string[];
}

/**
 * Why a statement is invalid. IAM would reject it, so what it says cannot be trusted. An
 * invalid Allow is dropped (that only narrows); an invalid Deny, or a statement whose
 * Effect is invalid, is kept as a Deny that may apply: the elements at fault match
 * anything, and its applicability carries an undecidable `Invalid` condition.
 */
export interface InvalidStatement {
  /** The elements at fault: `Document`, `Statement`, `Effect`, `Action`, `Resource`, `Principal`, `Condition`. */
  elements: readonly string[];
  /** The parse issues, as `path: message`. */
  issues: readonly string[];
}

export interface Statement {
  /** Position in the policy's Statement array. */
  index: number;
  sid?: string;
  effect: Effect;
  action?: readonly string[];
  notAction?: readonly string[];
  resource?: readonly string[];
  notResource?: readonly string[];
  principal?: PrincipalSet;
  notPrincipal?: PrincipalSet;
  conditions: readonly ConditionClause[];
  /** Set on an invalid Deny kept in place of the dropped statement (see `InvalidStatement`). */
  invalid?: InvalidStatement;
}

export interface Policy {
  /** Stable identifier: the managed policy ARN, or a synthetic `owner#inline#name`. */
  id: string;
  name: string;
  type: PolicyType;
  statements: readonly Statement[];
  /** For identity policies received through a group: the group ARN. */
  attachedVia?: string;
}

/** Human-readable label of a statement: its Sid, or its index. */
export function describeStatement(statement: Statement): string {
  return statement.sid ? statement.sid : `#${statement.index}`;
}
