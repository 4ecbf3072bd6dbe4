import { evaluateCondition } from "../conditions/evaluate-condition.ts";
import { and, atom, FALSE, type Formula, not, or, TRUE } from "../logic/formula.ts";
import { compileGlobParts, matchCompiledGlob } from "../policy/glob.ts";
import {
  describeStatement,
  type InvalidStatement,
  type Policy,
  type Statement,
} from "../policy/policy-types.ts";
import {
  hasPolicyVariable,
  type KeyResolver,
  substituteVariables,
  variablesState,
} from "../policy/policy-variables.ts";
import { matchesPatternAt, matchesWildcard } from "../policy/wildcard.ts";

export function statementMatchesAction(statement: Statement, action: string): boolean {
  if (statement.action)
    return statement.action.some((pattern) => matchesWildcard(pattern, action, true));
  if (statement.notAction)
    return !statement.notAction.some((pattern) => matchesWildcard(pattern, action, true));
  return false;
}

/**
 * When the statement applies to `resource`, ignoring Principal: TRUE, FALSE, or a
 * formula over conditions (and policy variables) the request leaves undecided.
 */
export function statementAppliesTo(
  policy: Policy,
  statement: Statement,
  action: string,
  resource: string,
  resolve: KeyResolver,
): Formula {
  if (!statementMatchesAction(statement, action)) return FALSE;
  return statementAppliesToResource(policy, statement, resource, resolve);
}

/** Resource and Condition of a statement, without its Action (the analysis matches actions as sets). */
export function statementAppliesToResource(
  policy: Policy,
  statement: Statement,
  resource: string,
  resolve: KeyResolver,
): Formula {
  const where = {
    policyId: policy.id,
    policyType: policy.type,
    statement: describeStatement(statement),
  };
  let resourceMatch: Formula = TRUE;
  if (statement.resource)
    resourceMatch = matchResourceList(statement.resource, resource, resolve, where);
  else if (statement.notResource) {
    // A pattern whose variable has no value matches nothing here; whether the statement
    // applies at all is then undecidable (`unresolvedVariableAtom`).
    resourceMatch = and(
      not(matchResourceList(statement.notResource, resource, resolve, where)),
      unresolvedVariableAtom(statement.notResource, resolve, where),
    );
  }
  if (resourceMatch.kind === "false") return FALSE;
  const conditions = statement.conditions.map((clause) =>
    evaluateCondition(clause, resolve, where),
  );
  if (statement.invalid) conditions.push(invalidAtom(where, statement.invalid));
  return and(resourceMatch, ...conditions);
}

/**
 * What the engine cannot know about an invalid statement kept as a Deny: an atom that no
 * context decides, so every request the statement may match becomes conditional.
 */
function invalidAtom(
  where: { policyId: string; policyType: Policy["type"]; statement: string },
  invalid: InvalidStatement,
): Formula {
  return atom({
    ...where,
    operator: "Invalid",
    key: invalid.elements.join(","),
    values: invalid.issues,
  });
}

/** The operator of the condition that a statement applies despite a variable with no value. */
export const UNRESOLVED_VARIABLE = "UnresolvedVariable";

/**
 * A NotResource whose variables have no value (`${aws:username}` for a role, a missing
 * principal tag, a key known to be absent). The IAM User Guide, 'IAM policy elements:
 * Variables and tags', says only that this *may* make the whole statement invalid: if it
 * does, the statement applies to nothing; if it does not, the pattern matches nothing and the
 * statement applies to every resource the NotResource's other patterns leave out. No request
 * context decides between the two, so the statement applies under an atom that names it and
 * the variables (`key`, comma-separated) and holds the patterns (`values`) — an Allow may
 * grant and a Deny may deny, never silently dropped. TRUE when every variable has a value or
 * is unknown (an unknown one is a `Variable` condition of `matchResourceList`).
 */
function unresolvedVariableAtom(
  patterns: readonly string[],
  resolve: KeyResolver,
  where: { policyId: string; policyType: Policy["type"]; statement: string },
): Formula {
  if (variablesState(patterns, resolve) !== "absent") return TRUE;
  const keys: string[] = [];
  const values: string[] = [];
  for (const pattern of patterns) {
    if (!hasPolicyVariable(pattern)) continue;
    const sub = substituteVariables(pattern, resolve, true);
    if (sub.state !== "absent") continue;
    if (!keys.includes(sub.key)) keys.push(sub.key);
    values.push(pattern);
  }
  return atom({ ...where, operator: UNRESOLVED_VARIABLE, key: keys.join(","), values });
}

function matchResourceList(
  patterns: readonly string[],
  resource: string,
  resolve: KeyResolver,
  where: { policyId: string; policyType: Policy["type"]; statement: string },
): Formula {
  const outcomes: Formula[] = [];
  for (let i = 0; i < patterns.length; i++) {
    const pattern = patterns[i] as string;
    if (!hasPolicyVariable(pattern)) {
      if (matchesPatternAt(patterns, i, resource)) return TRUE;
      continue;
    }
    const sub = substituteVariables(pattern, resolve, true);
    if (sub.state === "resolved") {
      if (matchCompiledGlob(compileGlobParts(sub.parts), resource)) return TRUE;
    } else if (sub.state === "unknown") {
      outcomes.push(atom({ ...where, operator: "Variable", key: sub.key, values: [pattern] }));
    }
  }
  return or(...outcomes);
}
