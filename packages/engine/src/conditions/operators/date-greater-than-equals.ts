import { compareParsed, parseDate } from "../compare-number.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const dateGreaterThanEquals: ConditionOperator = {
  name: "DateGreaterThanEquals",
  negated: false,
  matches: (contextValue, policyValue) =>
    compareParsed(contextValue, policyValue, parseDate, (a, b) => a >= b),
};
