import { compileGlobParts, foldCase, matchCompiledGlob } from "../policy/glob.ts";
import { type KeyResolver, substituteVariables } from "../policy/policy-variables.ts";
import type { ValueMatch } from "./condition-operator.ts";

/**
 * String comparison shared by the String* operators; policy variables are substituted first.
 * Ignoring case, both sides fold as the wildcard matcher folds them (`foldCase`), with or
 * without a variable to substitute.
 */
export function compareString(
  contextValue: string,
  policyValue: string,
  resolve: KeyResolver,
  options: { wildcards: boolean; ignoreCase: boolean },
): ValueMatch {
  if (!policyValue.includes("${") && !options.wildcards) {
    return options.ignoreCase
      ? foldCase(contextValue) === foldCase(policyValue)
      : contextValue === policyValue;
  }
  const sub = substituteVariables(policyValue, resolve, options.wildcards);
  if (sub.state === "unknown") return "unknown";
  if (sub.state === "absent") return false;
  return matchCompiledGlob(compileGlobParts(sub.parts, options.ignoreCase), contextValue);
}
