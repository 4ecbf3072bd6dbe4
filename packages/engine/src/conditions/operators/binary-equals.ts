import type { ConditionOperator } from "../condition-operator.ts";

/** Values are base64; equal bytes have equal canonical base64, so compare the text after trimming padding whitespace. */
export const binaryEquals: ConditionOperator = {
  name: "BinaryEquals",
  negated: false,
  matches: (contextValue, policyValue) => contextValue.trim() === policyValue.trim(),
};
