import { createKeyResolver } from "../authorize/request-context.ts";
import { principalOfRecord } from "../authorize/resolve-requesting-principal.ts";
import { evaluateCondition } from "../conditions/evaluate-condition.ts";
import type { Statement } from "../policy/policy-types.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import { isPrincipalKey } from "./policy-traits.ts";

/**
 * How a principal-dependent policy treats this principal: the outcome (T, F or undecided)
 * of each condition on the principal's ARN, name, ID or tags. Principals with equal
 * signatures get equal outcomes and can share work; variables in resources or condition
 * values make the principal's ARN the signature.
 */
export function principalSignature(
  model: AccountModel,
  statements: readonly Statement[],
  record: PrincipalRecord,
): string {
  let resolve: ReturnType<typeof createKeyResolver> | undefined;
  let out = "";
  for (const s of statements) {
    for (const r of s.resource ?? s.notResource ?? []) if (r.includes("${")) return record.arn;
    for (const clause of s.conditions) {
      if (clause.values.some((v) => v.includes("${"))) return record.arn;
      if (!isPrincipalKey(clause.key)) continue;
      resolve ??= createKeyResolver(
        model,
        { principal: record.arn, action: "", resource: "*" },
        principalOfRecord(record, undefined).caller,
        record,
        undefined,
      );
      const outcome = evaluateCondition(clause, resolve, {
        policyId: "",
        policyType: "identity",
        statement: "",
      });
      out += outcome.kind === "true" ? "T" : outcome.kind === "false" ? "F" : "X";
    }
    out += ";";
  }
  return out;
}
