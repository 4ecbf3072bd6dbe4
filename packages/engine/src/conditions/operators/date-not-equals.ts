import { compareParsed, parseDate } from "../compare-number.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const dateNotEquals: ConditionOperator = {
  name: "DateNotEquals",
  negated: true,
  matches: (contextValue, policyValue) =>
    compareParsed(contextValue, policyValue, parseDate, (a, b) => a === b),
};
