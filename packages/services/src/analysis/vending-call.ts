import type { AccountContext, ExecutionRow } from "@sightline/db";
import { AppError, cvsNeedsOemIntegration } from "@sightline/domain";
import type { AnalysisSettings } from "./analysis-settings.ts";

/**
 * Refuses `cvs` for an account whose partner the operator has not made an OEM integration (or
 * no longer does): the trigger checks it, and so does the worker, for a grant revoked meanwhile.
 */
export function requireOemGrant(account: AccountContext): void {
  if (!account.oemGranted)
    throw new AppError(
      "FORBIDDEN",
      `Account ${account.accountId} cannot be analysed: ${cvsNeedsOemIntegration(account.partnerId ?? account.customerId)}`,
    );
}

/**
 * Where and what the `cvs` auditor method asks: the configured credential vending service, and
 * the execution's identifiers (the same request body for AWS and Azure; Azure adds a scope).
 */
export function vendingCallOf(
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
) {
  requireOemGrant(account);
  const vending = settings.credentialVending;
  if (!vending)
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      "No credential vending service is configured (SIGHTLINE_CVS_URL): the operator must set it for cvs accounts",
      { retryable: false },
    );
  return {
    url: vending.url,
    token: vending.token,
    request: {
      partnerId: account.partnerId ?? "",
      partnerCustomerId: account.partnerCustomerId ?? "",
      customerId: account.customerId,
      accountId: execution.accountId,
      provider: execution.provider,
      executionId: execution.executionId,
    },
  };
}
