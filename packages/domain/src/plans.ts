import type { SubscriptionPlanName } from "./partner-customer.ts";

export interface PlanLimits {
  /** Accounts one customer may monitor. */
  monitoredAccounts: number;
  /** On-demand analyses of one account per UTC day. */
  onDemandTriggersPerDay: number;
}

/** What each subscription plan allows (section 8 leaves the values to the operator). */
export const PLAN_LIMITS: Record<SubscriptionPlanName, PlanLimits> = {
  Starter: { monitoredAccounts: 5, onDemandTriggersPerDay: 3 },
  Team: { monitoredAccounts: 100, onDemandTriggersPerDay: 12 },
  Enterprise: { monitoredAccounts: 5000, onDemandTriggersPerDay: 48 },
};

/** Seconds from `now` to the next UTC midnight, when the day's trigger count starts again. */
export function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((next - now.getTime()) / 1000);
}
