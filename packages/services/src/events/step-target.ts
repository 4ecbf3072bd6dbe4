import type { AwsEventTarget } from "@sightline/domain";

/**
 * What an event step reads again: an event's targets, or — for an event of a call Sightline
 * reads whose names it could not make out — the whole account.
 */
export type StepTarget = AwsEventTarget | { readonly kind: "account"; readonly reason: string };

/** The distinct targets of a step's events, in a stable order. */
export function distinctTargets(targets: readonly StepTarget[]): StepTarget[] {
  const seen = new Map<string, StepTarget>();
  for (const target of targets) seen.set(JSON.stringify(target), target);
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, t]) => t);
}
