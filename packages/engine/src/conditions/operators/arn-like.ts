import { compareArn } from "../compare-arn.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const arnLike: ConditionOperator = {
  name: "ArnLike",
  negated: false,
  matches: compareArn,
};
