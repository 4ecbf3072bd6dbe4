import { compareString } from "../compare-string.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const stringNotEquals: ConditionOperator = {
  name: "StringNotEquals",
  negated: true,
  matches: (contextValue, policyValue, resolve) =>
    compareString(contextValue, policyValue, resolve, { wildcards: false, ignoreCase: false }),
};
