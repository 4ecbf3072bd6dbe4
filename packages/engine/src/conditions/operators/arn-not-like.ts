import { compareArn } from "../compare-arn.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const arnNotLike: ConditionOperator = {
  name: "ArnNotLike",
  negated: true,
  matches: compareArn,
};
