import { compareString } from "../compare-string.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const stringNotLike: ConditionOperator = {
  name: "StringNotLike",
  negated: true,
  matches: (contextValue, policyValue, resolve) =>
    compareString(contextValue, policyValue, resolve, { wildcards: true, ignoreCase: false }),
};
