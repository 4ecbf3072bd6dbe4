import type { KeyResolver } from "../policy/policy-variables.ts";
import { compareString } from "./compare-string.ts";
import type { ValueMatch } from "./condition-operator.ts";

function splitArn(text: string): string[] | undefined {
  const parts = text.split(":");
  if (parts.length < 6) return undefined;
  return [...parts.slice(0, 5), parts.slice(5).join(":")];
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
