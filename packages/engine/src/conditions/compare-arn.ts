import { parseArn } from "../arn/parse-arn.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import { compareString } from "./compare-string.ts";
import type { ValueMatch } from "./condition-operator.ts";

function splitArn(text: string): string[] | undefined {
  const arn = parseArn(text);
  return arn && ["arn", arn.partition, arn.service, arn.region, arn.accountId, arn.resource];
}

/** Arn* operators: each of the six colon-separated parts is matched on its own, with wildcards. */
export function compareArn(
  contextValue: string,
  policyValue: string,
  resolve: KeyResolver,
): ValueMatch {
  const request = splitArn(contextValue);
  const policy = splitArn(policyValue);
  if (!request || !policy) return policyValue === "*";
  let result: ValueMatch = true;
  for (let i = 0; i < 6; i++) {
    const m = compareString(request[i] ?? "", policy[i] ?? "", resolve, {
      wildcards: true,
      ignoreCase: false,
    });
    if (m === false) return false;
    if (m === "unknown") result = "unknown";
  }
  return result;
}
