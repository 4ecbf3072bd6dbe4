import {
  atom,
  type ConditionAtom,
  FALSE,
  type Formula,
  fromBoolean,
  TRUE,
} from "../logic/formula.ts";
import type { ConditionClause } from "../policy/policy-types.ts";
import { hasPolicyVariable, type KeyResolver, variablesState } from "../policy/policy-variables.ts";
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
  // A negated operator whose values hold a variable with no value does not match, so the
  // statement does not apply (IAM User Guide, 'IAM policy elements: Variables and tags').
  // Only IfExists and ForAllValues still hold on a missing key: they compare no value then.
  const variables = negatedWithVariables(operator, clause.values)
    ? variablesState(clause.values, resolve)
    : "resolved";
  if (variables === "absent") {
    if (!ifExists && set !== "ForAllValues") return FALSE;
    if (lookup.state === "unknown") return unresolved;
    return fromBoolean(!(lookup.state === "present" && lookup.values.length > 0));
  }
  if (lookup.state === "unknown") return unresolved;
  const present = lookup.state === "present" && lookup.values.length > 0;
  if (operator.name === "Null") {
    const wantsAbsent = clause.values.map((v) => v.toLowerCase() === "true");
    return fromBoolean(wantsAbsent.some((absent) => absent !== present));
  }
  if (!present) {
    if (ifExists || set === "ForAllValues") return TRUE;
    if (set === "ForAnyValue") return FALSE;
    if (!operator.negated) return FALSE;
    // Holds on a missing key unless an unknown variable turns out to have no value.
    return variables === "unknown" ? unresolved : TRUE;
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

/** Negated String* and Arn* operators substitute variables (the other operators take values literally). */
function negatedWithVariables(operator: ConditionOperator, values: readonly string[]): boolean {
  return (
    operator.negated &&
    /^(String|Arn)/.test(operator.name) &&
    values.some((value) => hasPolicyVariable(value))
  );
}
