import type { AccountContext, ExecutionRow } from "@sightline/db";
import { AppError } from "@sightline/domain";
import type { AnalysisSettings } from "./analysis-settings.ts";

/**
 * Where and what the `cvs` auditor method asks: the configured credential vending service, and
 * the execution's identifiers (the same request body for AWS and Azure; Azure adds a scope).
 */
export function vendingCallOf(
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
) {
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
