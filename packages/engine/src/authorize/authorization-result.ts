import type { Issue } from "../issues.ts";
import type { ConditionAtom, Formula } from "../logic/formula.ts";
import type { Effect, PolicyType } from "../policy/policy-types.ts";

export type Decision = "allowed" | "implicit-deny" | "explicit-deny" | "conditional";

/** A statement that applied to the request (or would, under its conditions). */
export interface MatchedStatement {
  policyId: string;
  policyName: string;
  policyType: PolicyType;
  /** The Sid, or `#<index>` when the statement has none. */
  statement: string;
  effect: Effect;
  /** `conditional` when it applies only if undecided conditions hold. */
  match: "applies" | "conditional";
  /** For identity policies received through a group. */
  attachedVia?: string;
  /** An invalid statement kept as a Deny that may apply: its parse issues. */
  invalid?: readonly string[];
}

export interface AuthorizationResult {
  decision: Decision;
  /** For `conditional`: the request is allowed exactly when this formula holds. */
  condition?: Formula;
  /** The undecided conditions in `condition`, flattened for display. */
  conditions: ConditionAtom[];
  statements: MatchedStatement[];
  /** For denials: the policy type that stopped the request (for explicit denies, the type of the denying policy). */
  stoppedBy?: PolicyType;
  /** The rules that decided, e.g. `cross-account: both sides must allow`. */
  notes: string[];
  issues: Issue[];
}
