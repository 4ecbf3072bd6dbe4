import type { Policy, Statement } from "../policy/policy-types.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";

/**
 * The services (action prefixes, lower case) on whose resources `principals` may be evaluated
 * differently in `after` than in `before`; undefined when that may be any service.
 *
 * A resource is evaluated for the actions of one prefix (`describeResource`: a bucket's s3, a
 * key's kms, a role's sts), so a principal's rows on it depend on its identity statements that
 * can name an action of that prefix, besides the resource's own policy and the organisation's
 * (which `changeScope` compares). Only the statements of its identity policies that are not in
 * both models, the same in the same policy at the same place, can change its rows, and only on
 * the prefixes their actions name. A statement with `NotAction`, an invalid one, or an action
 * whose service is a pattern names any prefix; so does a change of its permissions boundary (it
 * denies what it does not allow), any other difference in the principal's record (its tags,
 * groups, path, …) and a principal in one model only.
 */
export function reachPrefixes(
  before: AccountModel,
  after: AccountModel,
  principals: Iterable<string>,
): ReadonlySet<string> | undefined {
  const prefixes = new Set<string>();
  for (const arn of principals) {
    const [was, is] = [before.principals.get(arn), after.principals.get(arn)];
    if (!was && !is) continue;
    if (!was || !is || recordText(was) !== recordText(is)) return undefined;
    // A boundary allows some actions and so denies all others: any change to it names any.
    if (boundaryText(was) !== boundaryText(is)) return undefined;
    const [old, now] = [statementTexts(was), statementTexts(is)];
    for (const [texts, other] of [
      [old, now],
      [now, old],
    ] as const)
      for (const [text, { statement, count }] of texts) {
        if (other.get(text)?.count === count) continue;
        if (!addPrefixes(statement, prefixes)) return undefined;
      }
  }
  return prefixes;
}

/** The record but its policies, as JSON: what else its evaluation reads. */
function recordText(p: PrincipalRecord): string {
  const { identityPolicies: _i, permissionsBoundary: _b, source, ...rest } = p;
  const {
    inlinePolicies: _s,
    managedPolicyArns: _m,
    permissionsBoundaryArn: _a,
    ...own
  } = source as typeof source & { trustPolicy?: unknown };
  // A role's trust policy is the role as a resource: `changeScope` puts that in scope.
  delete (own as { trustPolicy?: unknown }).trustPolicy;
  return JSON.stringify([rest, own]);
}

const boundaryText = (p: PrincipalRecord) => JSON.stringify(p.permissionsBoundary ?? null);

/** Each identity statement by its policy, place and content, as JSON. */
function statementTexts(p: PrincipalRecord): Map<string, { statement: Statement; count: number }> {
  const texts = new Map<string, { statement: Statement; count: number }>();
  const add = (role: string, policy: Policy) => {
    const { statements: _s, ...head } = policy;
    for (const statement of policy.statements) {
      const text = JSON.stringify([role, head, statement]);
      const known = texts.get(text);
      if (known) known.count++;
      else texts.set(text, { statement, count: 1 });
    }
  };
  for (const policy of p.identityPolicies) add("identity", policy);
  return texts;
}

/** Adds the prefixes a statement's actions name; false when it may name any. */
function addPrefixes(statement: Statement, prefixes: Set<string>): boolean {
  if (statement.invalid || statement.notAction || !statement.action) return false;
  for (const action of statement.action) {
    const colon = action.indexOf(":");
    if (colon < 0) return false;
    const prefix = action.slice(0, colon);
    if (/[*?$]/.test(prefix)) return false;
    prefixes.add(prefix.toLowerCase());
  }
  return true;
}
