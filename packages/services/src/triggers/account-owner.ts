import {
  type AccountContext,
  loadAccountContext,
  loadDirectAccountContext,
  loadPartnerAccountContext,
} from "@sightline/db";
import { AppError } from "@sightline/domain";
import type { ServiceContext } from "../context.ts";

/** Whose account is analysed: a partner customer's, a direct customer's, or by customer ID. */
export type AccountOwner =
  | { kind: "partner"; partnerId: string; partnerCustomerId: string }
  | { kind: "direct"; customerId: string }
  | { kind: "customer-id"; customerId: string };

function ownerNotConfigured(owner: AccountOwner): AppError {
  if (owner.kind === "partner")
    return new AppError(
      "NOT_FOUND",
      `Customer ${owner.partnerCustomerId} of partner ${owner.partnerId} is not configured: PUT /partner/${owner.partnerId}/customer/${owner.partnerCustomerId} first`,
    );
  return new AppError(
    "NOT_FOUND",
    `Customer ${owner.customerId} is not registered: the operator registers it with PUT /admin/customers/${owner.customerId}`,
  );
}

function loadContext(ctx: ServiceContext, owner: AccountOwner, accountId: string) {
  if (owner.kind === "partner") return loadPartnerAccountContext(ctx.db, { ...owner, accountId });
  if (owner.kind === "direct") return loadDirectAccountContext(ctx.db, { ...owner, accountId });
  return loadAccountContext(ctx.db, { customerId: owner.customerId, accountId });
}

/** The owner's account context; NOT_FOUND naming what to configure when the owner is not. */
export async function loadOwnerAccount(
  ctx: ServiceContext,
  owner: AccountOwner,
  accountId: string,
): Promise<AccountContext> {
  const account = await loadContext(ctx, owner, accountId);
  if (!account) throw ownerNotConfigured(owner);
  return account;
}
