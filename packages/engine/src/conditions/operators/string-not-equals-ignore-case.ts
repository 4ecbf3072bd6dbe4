import { compareString } from "../compare-string.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const stringNotEqualsIgnoreCase: ConditionOperator = {
  name: "StringNotEqualsIgnoreCase",
  negated: true,
  matches: (contextValue, policyValue, resolve) =>
    compareString(contextValue, policyValue, resolve, { wildcards: false, ignoreCase: true }),
};
