import type { GrantSource } from "./analysis-types.ts";

const sourceKey = (s: GrantSource) =>
  `${s.policyType}\u0000${s.policyArn ?? ""}\u0000${s.group ?? ""}\u0000${s.policyName ?? ""}`;

/**
 * Granting policies in one order whoever's evaluation found them: principals sharing a policy
 * set are evaluated once, through one of them, and the order its policies were attached in
 * must not show in another's rows (an event step keeps rows a whole analysis would make again
 * with another representative).
 */
export function inCanonicalOrder(sources: GrantSource[]): GrantSource[] {
  if (sources.length < 2) return sources;
  return sources.sort((a, b) => {
    const [x, y] = [sourceKey(a), sourceKey(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
