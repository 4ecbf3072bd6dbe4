import { compareParsed, parseNumber } from "../compare-number.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const numericNotEquals: ConditionOperator = {
  name: "NumericNotEquals",
  negated: true,
  matches: (contextValue, policyValue) =>
    compareParsed(contextValue, policyValue, parseNumber, (a, b) => a === b),
};
