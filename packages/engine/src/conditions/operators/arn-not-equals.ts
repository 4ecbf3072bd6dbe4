import { compareArn } from "../compare-arn.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const arnNotEquals: ConditionOperator = {
  name: "ArnNotEquals",
  negated: true,
  matches: compareArn,
};
