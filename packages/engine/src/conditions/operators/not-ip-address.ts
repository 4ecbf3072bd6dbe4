import { ipInCidr } from "../compare-ip.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const notIpAddress: ConditionOperator = {
  name: "NotIpAddress",
  negated: true,
  matches: (contextValue, policyValue) => ipInCidr(contextValue, policyValue),
};
