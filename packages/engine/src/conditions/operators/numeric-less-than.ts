import { compareParsed, parseNumber } from "../compare-number.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const numericLessThan: ConditionOperator = {
  name: "NumericLessThan",
  negated: false,
  matches: (contextValue, policyValue) =>
    compareParsed(contextValue, policyValue, parseNumber, (a, b) => a < b),
};
