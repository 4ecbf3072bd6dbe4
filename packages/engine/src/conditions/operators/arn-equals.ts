import { compareArn } from "../compare-arn.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const arnEquals: ConditionOperator = {
  name: "ArnEquals",
  negated: false,
  matches: compareArn,
};
