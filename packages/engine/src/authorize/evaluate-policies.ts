import { atom, type Formula, or } from "../logic/formula.ts";
import { describeStatement, type Policy, type Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { MatchedStatement } from "./authorization-result.ts";
import type { LayerOutcome } from "./compose-decision.ts";
import { statementAppliesTo } from "./evaluate-statement.ts";
import { matchStatementPrincipal, type PrincipalMatch } from "./match-principal.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

export type PolicySetOutcome = LayerOutcome<Formula>;

export interface EvaluationInput {
  action: string;
  resource: string;
  resolve: KeyResolver;
  caller: RequestingPrincipal;
  matched: MatchedStatement[];
}

/**
 * Evaluates a set of policies of one type; statements that apply are recorded in
 * `input.matched`. `matchOf` may supply how each statement names the caller when the
 * caller already worked it out (the access graph indexes large Principal lists).
 */
export function evaluatePolicies(
  policies: readonly Policy[],
  input: EvaluationInput,
  usePrincipal: boolean,
  matchOf?: (statement: Statement) => PrincipalMatch,
): PolicySetOutcome {
  const deny: Formula[] = [];
  const allow: Record<Exclude<PrincipalMatch, "none">, Formula[]> = {
    direct: [],
    role: [],
    account: [],
  };
  for (const policy of policies) {
    for (const statement of policy.statements) {
      const who: PrincipalMatch = usePrincipal
        ? (matchOf?.(statement) ?? matchStatementPrincipal(statement, input.caller))
        : "direct";
      if (who === "none") continue;
      const applies = statementAppliesTo(
        policy,
        statement,
        input.action,
        input.resource,
        input.resolve,
      );
      if (applies.kind === "false") continue;
      input.matched.push({
        policyId: policy.id,
        policyName: policy.name,
        policyType: policy.type,
        statement: describeStatement(statement),
        effect: statement.effect,
        match: applies.kind === "true" ? "applies" : "conditional",
        ...(policy.attachedVia && { attachedVia: policy.attachedVia }),
        ...(statement.invalid && { invalid: statement.invalid.issues }),
      });
      if (statement.effect === "Deny") deny.push(applies);
      else allow[who].push(applies);
    }
  }
  const allowDirect = or(...allow.direct);
  const allowRole = or(...allow.role);
  const allowAccount = or(...allow.account);
  return {
    deny: or(...deny),
    allow: or(allowDirect, allowRole, allowAccount),
    allowDirect,
    allowRole,
    allowAccount,
  };
}

/** Organization policies: every level of the path must allow. */
export function evaluateLevels(
  levels: readonly (readonly Policy[])[],
  input: EvaluationInput,
  usePrincipal: boolean,
): { deny: Formula; allow: Formula[] } {
  const deny: Formula[] = [];
  const allow: Formula[] = [];
  for (const level of levels) {
    const outcome = evaluatePolicies(level, input, usePrincipal);
    deny.push(outcome.deny);
    allow.push(outcome.allow);
  }
  return { deny: or(...deny), allow };
}

/** Stands for policies the engine cannot see (a principal from an account outside the snapshots). */
export function unknownPolicies(policyId: string, action: string): Formula {
  return atom({
    policyId,
    policyType: "identity",
    statement: "*",
    operator: "NotInSnapshot",
    key: "identity-policies",
    values: [action],
  });
}
