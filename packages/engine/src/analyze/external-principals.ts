import { parseArn } from "../arn/parse-arn.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import type { Policy } from "../policy/policy-types.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import type { ResourcePrincipalType } from "./analysis-types.ts";

export interface ExternalEntry {
  principal: string;
  principalType: ResourcePrincipalType;
  accountId?: string;
  caller: RequestingPrincipal;
}

/**
 * Principals a resource policy allows that the snapshots do not hold: anyone (`*`),
 * other accounts, their users and roles, services, federated and canonical users.
 * Principals of analysed accounts are covered one by one instead.
 */
export function listExternalPrincipals(
  model: AccountModel,
  policy: Policy,
  partition: string,
): ExternalEntry[] {
  const entries = new Map<string, ExternalEntry>();
  const add = (entry: ExternalEntry) =>
    entries.set(`${entry.principalType}|${entry.principal}`, entry);
  for (const statement of policy.statements) {
    const set = statement.principal;
    if (statement.effect !== "Allow" || !set) continue;
    if (set.any)
      add({ principal: "*", principalType: "Anonymous", caller: { kind: "anonymous", arn: "*" } });
    for (const value of set.aws) {
      const accountId = /^\d{12}$/.test(value) ? value : parseArn(value)?.accountId;
      if (!accountId || model.accounts.has(accountId)) continue;
      const isAccount = /^\d{12}$/.test(value) || value.endsWith(":root");
      const arn = isAccount ? `arn:${partition}:iam::${accountId}:root` : value;
      add({
        principal: isAccount ? accountId : value,
        principalType: isAccount ? "Account" : "ExternalPrincipal",
        accountId,
        caller: {
          kind: "external",
          arn,
          accountId,
          partition,
          ...(!isAccount && { identityArn: value }),
        },
      });
    }
    for (const service of set.service)
      add({
        principal: service,
        principalType: "Service",
        caller: { kind: "service", arn: service, service },
      });
    for (const provider of set.federated) {
      add({
        principal: provider,
        principalType: "Federated",
        caller: { kind: "federated", arn: `federated:${provider}`, federatedProvider: provider },
      });
    }
    for (const id of set.canonicalUser) {
      add({
        principal: id,
        principalType: "CanonicalUser",
        caller: { kind: "anonymous", arn: id, canonicalUser: id },
      });
    }
  }
  return [...entries.values()];
}

/** ARNs and unique IDs a resource policy names (so those principals are evaluated on their own). */
export function namedPrincipals(policy: Policy): Set<string> {
  const names = new Set<string>();
  for (const statement of policy.statements) {
    for (const set of [statement.principal, statement.notPrincipal])
      for (const value of set?.aws ?? []) names.add(value);
  }
  return names;
}
