import { compareParsed, parseNumber } from "../compare-number.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const numericLessThanEquals: ConditionOperator = {
  name: "NumericLessThanEquals",
  negated: false,
  matches: (contextValue, policyValue) =>
    compareParsed(contextValue, policyValue, parseNumber, (a, b) => a <= b),
};
