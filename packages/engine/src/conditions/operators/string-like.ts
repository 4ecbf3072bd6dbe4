import { compareString } from "../compare-string.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const stringLike: ConditionOperator = {
  name: "StringLike",
  negated: false,
  matches: (contextValue, policyValue, resolve) =>
    compareString(contextValue, policyValue, resolve, { wildcards: true, ignoreCase: false }),
};
