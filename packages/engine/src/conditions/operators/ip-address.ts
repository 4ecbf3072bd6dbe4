import { ipInCidr } from "../compare-ip.ts";
import type { ConditionOperator } from "../condition-operator.ts";

export const ipAddress: ConditionOperator = {
  name: "IpAddress",
  negated: false,
  matches: (contextValue, policyValue) => ipInCidr(contextValue, policyValue),
};
