import { AppError, type SubscriptionPlanName } from "@sightline/domain";

/**
 * A new account beyond the plan's limit. The limit does not pass with time, so the 429 carries no
 * Retry-After: deleting an account or a larger plan lifts it.
 */
export function accountLimitReached(
  accountId: string,
  reached: { plan: SubscriptionPlanName; limit: number },
): AppError {
  return new AppError(
    "RATE_LIMITED",
    `Account ${accountId} was not added: plan ${reached.plan} monitors at most ${reached.limit} accounts per customer; delete one or move to a larger plan`,
  );
}
