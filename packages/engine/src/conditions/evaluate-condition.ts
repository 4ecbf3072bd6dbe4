import {
  atom,
  type ConditionAtom,
  FALSE,
  type Formula,
  fromBoolean,
  TRUE,
} from "../logic/formula.ts";
import type { ConditionClause } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { ConditionOperator, ValueMatch } from "./condition-operator.ts";
import { findConditionOperator } from "./condition-operators.ts";

export interface ParsedOperator {
  set: "ForAllValues" | "ForAnyValue" | undefined;
  ifExists: boolean;
  operator: ConditionOperator | undefined;
}

/** Splits `ForAnyValue:StringLikeIfExists` into its set qualifier, base operator and IfExists flag. */
export function parseOperatorName(name: string): ParsedOperator {
  let rest = name;
  let set: ParsedOperator["set"];
  const colon = rest.indexOf(":");
  if (colon >= 0) {
    const prefix = rest.slice(0, colon).toLowerCase();
    if (prefix === "forallvalues") set = "ForAllValues";
    else if (prefix === "foranyvalue") set = "ForAnyValue";
    else return { set: undefined, ifExists: false, operator: undefined };
    rest = rest.slice(colon + 1);
  }
  const ifExists = /ifexists$/i.test(rest) && rest.toLowerCase() !== "ifexists";
  if (ifExists) rest = rest.slice(0, -"IfExists".length);
  const operator = findConditionOperator(rest);
  // AWS does not allow `NullIfExists`.
  if (operator?.name === "Null" && (ifExists || set)) return { set, ifExists, operator: undefined };
  return { set, ifExists, operator };
}

/**
 * Evaluates one operator/key clause. A key the request does not know (neither given
 * nor derivable) yields an atom: the caller learns the condition instead of a guess.
 */
export function evaluateCondition(
  clause: ConditionClause,
  resolve: KeyResolver,
  describe: Omit<ConditionAtom, "operator" | "key" | "values">,
): Formula {
  const unresolved = atom({
    ...describe,
    operator: clause.operator,
    key: clause.key,
    values: clause.values,
  });
  const { set, ifExists, operator } = parseOperatorName(clause.operator);
  if (!operator) return unresolved;
  const lookup = resolve(clause.key);
  if (lookup.state === "unknown") return unresolved;
  const present = lookup.state === "present" && lookup.values.length > 0;
  if (operator.name === "Null") {
    const wantsAbsent = clause.values.map((v) => v.toLowerCase() === "true");
    return fromBoolean(wantsAbsent.some((absent) => absent !== present));
  }
  if (!present) {
    if (ifExists || set === "ForAllValues") return TRUE;
    if (set === "ForAnyValue") return FALSE;
    return fromBoolean(operator.negated);
  }
  const values = lookup.state === "present" ? lookup.values : [];
  const perValue = values.map((value) => matchesValue(operator, value, clause.values, resolve));
  if (perValue.includes("unknown")) return unresolved;
  const all = perValue.every(Boolean);
  const any = perValue.some(Boolean);
  if (set === "ForAllValues") return fromBoolean(all);
  if (set === "ForAnyValue") return fromBoolean(any);
  return fromBoolean(operator.negated ? all : any);
}

function matchesValue(
  operator: ConditionOperator,
  contextValue: string,
  policyValues: readonly string[],
  resolve: KeyResolver,
): ValueMatch {
  let unknown = false;
  for (const policyValue of policyValues) {
    const m = operator.matches(contextValue, policyValue, resolve);
    if (m === true) return !operator.negated;
    if (m === "unknown") unknown = true;
  }
  return unknown ? "unknown" : operator.negated;
}
