import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { PolicyIds } from "./policy-traits.ts";
import { principalSignature } from "./principal-signature.ts";

/**
 * Hashes a principal's effective policy set (account, kind, service-linked, boundary,
 * identity policies; with `window`, only those naming its actions). Principal-dependent
 * policies add how they treat this principal (`principalSignature`).
 */
export function policySetKey(
  model: AccountModel,
  ids: PolicyIds,
  index: ActionIndex,
  record: PrincipalRecord,
  window?: PrefixWindow,
): string {
  const account = model.accounts.get(record.accountId);
  const orgPolicies = [
    ...(account?.serviceControlPolicies.flat() ?? []),
    ...(account?.resourceControlPolicies.flat() ?? []),
  ];
  const signatures: string[] = [];
  const sign = (statements: PrincipalRecord["identityPolicies"][number]["statements"]) => {
    if (ids.isDependent(statements))
      signatures.push(`${ids.idOf(statements)}:${principalSignature(model, statements, record)}`);
  };
  for (const policy of orgPolicies)
    if (!window || touchesWindow(index, policy.statements, window)) sign(policy.statements);
  const identity: number[] = [];
  for (const policy of record.identityPolicies) {
    if (window && !touchesWindow(index, policy.statements, window)) continue;
    identity.push(ids.idOf(policy.statements));
    sign(policy.statements);
  }
  const boundary = record.permissionsBoundary;
  if (boundary) sign(boundary.statements);
  identity.sort((a, b) => a - b);
  const boundaryId = boundary ? ids.idOf(boundary.statements) : 0;
  const base = `${record.accountId}|${record.kind}|${record.serviceLinked ? 1 : 0}|${boundaryId}|${identity.join(",")}`;
  return signatures.length > 0 ? `${base}|${signatures.join("|")}` : base;
}

function touchesWindow(
  index: ActionIndex,
  statements: PrincipalRecord["identityPolicies"][number]["statements"],
  window: PrefixWindow,
): boolean {
  return statements.some((s) => index.namesActionIn(index.actionSet(s), window));
}

/** Groups principals (AWS principal records, Azure principals) by key, keeping first-seen order. */
export function groupPrincipals<P>(
  records: readonly P[],
  keyOf: (r: P) => string,
): Map<string, P[]> {
  const groups = new Map<string, P[]>();
  for (const r of records) {
    const key = keyOf(r);
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}
