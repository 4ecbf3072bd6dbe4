import { formulaAlgebra } from "../logic/algebra.ts";
import { atom, FALSE, type Formula, or } from "../logic/formula.ts";
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
import { KEY_POLICY_UNREAD } from "./format-authorization.ts";
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

/**
 * Stands for a KMS key policy that could not be read (`unreadableKeyPolicies`). Every key has
 * one, and it alone decides whether IAM policies count (AWS KMS Developer Guide, 'Key policies
 * in AWS KMS'); unread, whether it allows the caller itself (`caller`) and whether it lets the
 * caller's account's IAM policies allow, as the default key policy does (`account`), are two
 * conditions that no request context decides. Whatever it denies, it cannot make a request
 * more than undecided, so it holds no Deny.
 */
export function unreadKeyPolicy(keyArn: string): PolicySetOutcome {
  const allows = (key: "caller" | "account") =>
    atom({
      policyId: keyArn,
      policyType: "kms-key",
      statement: "",
      operator: KEY_POLICY_UNREAD,
      key,
      values: [keyArn],
    });
  const caller = allows("caller");
  const account = allows("account");
  return {
    deny: FALSE,
    allow: or(caller, account),
    allowDirect: caller,
    allowRole: FALSE,
    allowAccount: account,
  };
}
