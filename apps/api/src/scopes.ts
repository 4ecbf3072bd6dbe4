/** Who may act under a path: the scope each route derives from its (already valid) parameters. */
type Params = Record<string, string>;
type Scope = { partnerId: string } | { customerId: string };

export const partnerScope = (p: Params): Scope => ({ partnerId: p.partnerId ?? "" });

export const customerScope = (p: Params): Scope => ({ customerId: p.customerId ?? "" });

/**
 * An execution ID embeds its customer ID, and a partner customer's mapped ID starts with its
 * partner's: the scope is known from the path alone, before any lookup, so a stranger gets 403
 * whether or not the execution exists.
 */
export function executionScope(p: Params): Scope {
  const owner = /^(?:ondemand|daily|event)-(C\d+|P\d{6})-/.exec(p.executionId ?? "")?.[1] ?? "";
  return owner.startsWith("P") ? { partnerId: owner } : { customerId: owner };
}
