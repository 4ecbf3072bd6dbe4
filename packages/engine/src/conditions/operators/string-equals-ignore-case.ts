import { compareString } from "../compare-string.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const stringEqualsIgnoreCase: ConditionOperator = {
  name: "StringEqualsIgnoreCase",
  negated: false,
  matches: (contextValue, policyValue, resolve) =>
    compareString(contextValue, policyValue, resolve, { wildcards: false, ignoreCase: true }),
};
