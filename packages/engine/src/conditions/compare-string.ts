import { type KeyResolver, substituteVariables } from "../policy/policy-variables.ts";
import type { ValueMatch } from "./condition-operator.ts";

const regexCache = new Map<string, RegExp>();

/** String comparison shared by the String* operators; policy variables are substituted first. */
export function compareString(
  contextValue: string,
  policyValue: string,
  resolve: KeyResolver,
  options: { wildcards: boolean; ignoreCase: boolean },
): ValueMatch {
  if (!policyValue.includes("${") && !options.wildcards) {
    return options.ignoreCase
      ? contextValue.toLowerCase() === policyValue.toLowerCase()
      : contextValue === policyValue;
  }
  const sub = substituteVariables(policyValue, resolve, options.wildcards);
  if (sub.state === "unknown") return "unknown";
  if (sub.state === "absent") return false;
  const cacheKey = `${options.ignoreCase ? "i" : "s"}:${sub.regexSource}`;
  let re = regexCache.get(cacheKey);
  if (!re) {
    if (regexCache.size > 50_000) regexCache.clear();
    re = new RegExp(`^${sub.regexSource}$`, options.ignoreCase ? "is" : "s");
    regexCache.set(cacheKey, re);
  }
  return re.test(contextValue);
}
