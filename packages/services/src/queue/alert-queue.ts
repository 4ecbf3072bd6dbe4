import type PgBoss from "pg-boss";
import { type AlertSettings, DEFAULT_ALERT_RETRY } from "../alerts/alert-settings.ts";

/** One alert's delivery to one destination (webhook, email digest or Security Hub import). */
export const ALERT_QUEUE = "alert-delivery";

/** Alert jobs that failed for good without recording it (their worker kept dying). */
export const LOST_ALERT_QUEUE = "alert-delivery-lost";

/** An alert job carries the alert's ID only; the alert row is the truth. */
export interface AlertJob {
  alertId: string;
}

/** The queue's own options; each job carries the operator's retry settings too. */
export const ALERT_QUEUE_OPTIONS: Omit<PgBoss.Queue, "name"> = {
  policy: "standard",
  retryLimit: DEFAULT_ALERT_RETRY.limit,
  retryDelay: DEFAULT_ALERT_RETRY.delaySeconds,
  retryBackoff: true,
  // A webhook answers within 10 s; an import of thousands of findings takes longer.
  expireInSeconds: 300,
  deadLetter: LOST_ALERT_QUEUE,
};

/** Retries of an alert job: exponential back-off from the delay (pg-boss doubles it each time). */
export function alertRetryOptions(settings: AlertSettings | undefined): PgBoss.RetryOptions {
  const retry = settings?.retry ?? DEFAULT_ALERT_RETRY;
  return { retryLimit: retry.limit, retryDelay: retry.delaySeconds, retryBackoff: true };
}
