import type { RequestingPrincipal } from "./requesting-principal.ts";

/**
 * Actions that need no permission: AWS allows them to any authenticated principal,
 * even under an explicit deny (STS API Reference, 'GetCallerIdentity'). `authorize`
 * answers `allowed`; the analysis holds them surely allowed for every principal and
 * leaves them out of the capability rows (a capability everybody holds tells nothing).
 */
export const ALWAYS_ALLOWED_ACTIONS: readonly string[] = ["sts:GetCallerIdentity"];

const LOWER = new Set(ALWAYS_ALLOWED_ACTIONS.map((a) => a.toLowerCase()));

export function isAlwaysAllowedAction(action: string): boolean {
  return LOWER.has(action.toLowerCase());
}

/** IAM users, role sessions, account roots and principals of other accounts sign their requests; services, providers and anonymous callers do not call as themselves. */
export function isAuthenticatedPrincipal(caller: RequestingPrincipal): boolean {
  return (
    caller.kind === "user" ||
    caller.kind === "role" ||
    caller.kind === "root" ||
    caller.kind === "external"
  );
}
