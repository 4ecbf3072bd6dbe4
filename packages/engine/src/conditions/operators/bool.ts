import type { ConditionOperator } from "../condition-operator.ts";

export const bool: ConditionOperator = {
  name: "Bool",
  negated: false,
  matches: (contextValue, policyValue) => contextValue.toLowerCase() === policyValue.toLowerCase(),
};
