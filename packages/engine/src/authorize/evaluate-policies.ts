import { formulaAlgebra } from "../logic/algebra.ts";
import { atom, type Formula } from "../logic/formula.ts";
import { describeStatement, type Policy, type Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { MatchedStatement } from "./authorization-result.ts";
import type { LayerOutcome } from "./compose-decision.ts";
import {
  type LevelsOutcome,
  levelsOutcome,
  type PolicySetOptions,
  policySetOutcome,
} from "./evaluate-layers.ts";
import { statementAppliesTo } from "./evaluate-statement.ts";
import { matchStatementPrincipal, type PrincipalMatch } from "./match-principal.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

export type PolicySetOutcome = LayerOutcome<Formula>;

export interface EvaluationInput {
  action: string;
  resource: string;
  resolve: KeyResolver;
  caller: RequestingPrincipal;
  /** Every statement that applies, in evaluation order (for the explanation). */
  matched: MatchedStatement[];
}

export interface FormulaPolicySetOptions extends PolicySetOptions {
  /**
   * How each statement names the requester, when the caller already worked it out (the
   * access graph indexes large Principal lists); default: `matchStatementPrincipal`.
   */
  principalMatchOf?: (statement: Statement) => PrincipalMatch;
}

/**
 * Evaluates a set of policies of one type over condition formulas (`policySetOutcome`);
 * statements that apply are recorded in `input.matched`.
 */
export function evaluatePolicies(
  policies: readonly Policy[],
  input: EvaluationInput,
  options: FormulaPolicySetOptions,
): PolicySetOutcome {
  const { principalMatchOf } = options;
  return policySetOutcome(formulaAlgebra, policies, {
    ...(options.resourceBased && {
      principalMatch: (_policy: Policy, statement: Statement) =>
        principalMatchOf?.(statement) ?? matchStatementPrincipal(statement, input.caller),
    }),
    appliesWhere(policy, statement) {
      const applies = statementAppliesTo(
        policy,
        statement,
        input.action,
        input.resource,
        input.resolve,
      );
      if (applies.kind === "false") return undefined;
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
      return applies;
    },
  });
}

/** Organization policies (SCPs, RCPs): every level of the path must allow. */
export function evaluateLevels(
  levels: readonly (readonly Policy[])[],
  input: EvaluationInput,
): LevelsOutcome<Formula> {
  return levelsOutcome(
    formulaAlgebra,
    levels.map((level) => evaluatePolicies(level, input, { resourceBased: false })),
  );
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
