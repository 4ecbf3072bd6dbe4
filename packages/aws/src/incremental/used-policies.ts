import type { GaadEntry } from "./event-reads.ts";

/** The managed policies a principal's GAAD entry uses: attached ones, and its boundary. */
export function policyUses(entry: GaadEntry): { attached: string[]; boundary?: string } {
  const attached = Array.isArray(entry.AttachedManagedPolicies)
    ? (entry.AttachedManagedPolicies as { PolicyArn?: unknown }[])
        .map((policy) => policy.PolicyArn)
        .filter((arn): arn is string => typeof arn === "string")
    : [];
  const boundary = (entry.PermissionsBoundary as { PermissionsBoundaryArn?: unknown } | undefined)
    ?.PermissionsBoundaryArn;
  return { attached, ...(typeof boundary === "string" ? { boundary } : {}) };
}

/** Every managed policy the entries use. */
export function usedPolicyArns(entries: Iterable<GaadEntry>): Set<string> {
  const arns = new Set<string>();
  for (const entry of entries) {
    const { attached, boundary } = policyUses(entry);
    for (const arn of attached) arns.add(arn);
    if (boundary) arns.add(boundary);
  }
  return arns;
}
