import type { ConditionOperator } from "../condition-operator.ts";

/**
 * `Null` tests presence, not values: `"true"` holds when the key is absent. The
 * evaluator handles presence itself; this entry only registers the name.
 */
export const nullOperator: ConditionOperator = {
  name: "Null",
  negated: false,
  matches: () => false,
};
