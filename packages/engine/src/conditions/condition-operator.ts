import type { KeyResolver } from "../policy/policy-variables.ts";

/** Outcome of comparing one request value with one policy value. */
export type ValueMatch = boolean | "unknown";

/** One condition operator, e.g. `StringEquals`. Set prefixes and `IfExists` are handled around it. */
export interface ConditionOperator {
  name: string;
  /** `...Not...` operators hold when the request value matches none of the policy values. */
  negated: boolean;
  /** Compares without negation; `"unknown"` when a policy variable in the value is unknown. */
  matches(contextValue: string, policyValue: string, resolve: KeyResolver): ValueMatch;
}
