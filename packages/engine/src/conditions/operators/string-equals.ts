import { compareString } from "../compare-string.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const stringEquals: ConditionOperator = {
  name: "StringEquals",
  negated: false,
  matches: (contextValue, policyValue, resolve) =>
    compareString(contextValue, policyValue, resolve, { wildcards: false, ignoreCase: false }),
};
