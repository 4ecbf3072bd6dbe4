import { statementMatchesAction } from "../authorize/evaluate-statement.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { PolicyFactsCache } from "./policy-relevance.ts";
import { arnAccount, type TrustIndex } from "./trust-matcher.ts";

const ASSUME_ACTIONS = [
  "sts:AssumeRole",
  "sts:AssumeRoleWithWebIdentity",
  "sts:AssumeRoleWithSAML",
] as const;

/**
 * Whom a trust's Allow statements could admit: the only principals evaluated. A trust must
 * allow even within the account, so one that names neither a principal, its account nor `*` admits nobody.
 */
export interface TrustCandidates {
  /** `*` or `{"AWS": "*"}`: anyone may be admitted. */
  wildcard: boolean;
  /** Accounts named by ID or root ARN. */
  accounts: string[];
  /** Users and roles of analysed accounts named by ARN or unique ID (a principal named twice appears twice). */
  principals: PrincipalRecord[];
  /** ARNs of principals of accounts outside the snapshots. */
  externals: string[];
  services: string[];
  federated: string[];
  /** Named by ARN or ID in any statement, Allow or Deny: such principals are evaluated one by one. */
  names(record: PrincipalRecord): boolean;
  /** The trust tells principals of one class apart (conditions on their name or tags, NotPrincipal). */
  perPrincipal: boolean;
}

export function trustCandidates(
  model: AccountModel,
  byId: ReadonlyMap<string, PrincipalRecord>,
  caches: { facts: PolicyFactsCache; trusts: TrustIndex },
  trust: Policy,
): TrustCandidates {
  const indexed = caches.trusts.indexed(trust.statements);
  const out: TrustCandidates = {
    wildcard: false,
    accounts: [],
    principals: [],
    externals: [],
    services: [],
    federated: [],
    names: (r) =>
      indexed.some((x) => x !== undefined && (x.values.has(r.arn) || x.values.has(r.id))),
    perPrincipal: caches.facts.factsOf(trust.statements).dependent,
  };
  trust.statements.forEach((s, i) => {
    // NotPrincipal lists are not indexed: with one, every principal is decided on its own.
    if (s.notPrincipal) out.perPrincipal = true;
    if (s.effect !== "Allow" || !admitsAssume(s)) return;
    // (An Allow with NotPrincipal never gets here: the parser drops it, as AWS does not support it.)
    if (s.principal?.any) out.wildcard = true;
    const set = indexed[i];
    if (!set) return;
    for (const value of set.set.service) addOnce(out.services, value);
    for (const value of set.set.federated) addOnce(out.federated, value);
    for (const account of set.accounts) addOnce(out.accounts, account);
    for (const [value, kind] of set.values) {
      if (kind === "account" || kind === "root") continue;
      const record = kind === "id" ? byId.get(value) : model.principals.get(value);
      if (record) out.principals.push(record);
      // A principal of an analysed account that its snapshot lacks does not exist, and a
      // session ARN admits one session only, while roles are analysed as any session.
      else if (kind === "arn" && !model.accounts.has(arnAccount(value)))
        addOnce(out.externals, value);
    }
  });
  return out;
}

/** Lists of services, providers and accounts in one trust are short: no set needed. */
function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

/** Most trusts say exactly `sts:AssumeRole`: that needs no wildcard matching. */
function admitsAssume(s: Statement): boolean {
  if (s.action?.some((a) => a.toLowerCase() === "sts:assumerole")) return true;
  return ASSUME_ACTIONS.some((a) => statementMatchesAction(s, a));
}
