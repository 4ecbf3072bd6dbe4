/**
 * Azure RBAC scopes: `/`, `/providers/Microsoft.Management/managementGroups/<id>`,
 * `/subscriptions/<id>`, `…/resourceGroups/<rg>`, and resource IDs below. Azure compares
 * scopes without regard to case, so every scope is compared in its lower-cased form.
 */

const MG_PREFIX = "/providers/microsoft.management/managementgroups/";

export type ScopeKind = "root" | "managementGroup" | "subscription" | "resourceGroup" | "resource";

/** Lower-cased, without a trailing `/` (except the root `/`). */
export function normalizeScope(scope: string): string {
  const s = scope.trim().toLowerCase().replace(/\/+$/, "");
  return s === "" ? "/" : s;
}

export function managementGroupScope(id: string): string {
  return `${MG_PREFIX}${id.toLowerCase()}`;
}

/** The kind of a normalized scope, or undefined when it is none of Azure's forms. */
export function scopeKind(scope: string): ScopeKind | undefined {
  if (scope === "/") return "root";
  if (scope.startsWith(MG_PREFIX) && !scope.slice(MG_PREFIX.length).includes("/"))
    return scope.length > MG_PREFIX.length ? "managementGroup" : undefined;
  const parts = scope.split("/");
  if (parts[0] !== "" || parts[1] !== "subscriptions" || !parts[2]) return undefined;
  if (parts.length === 3) return "subscription";
  if (parts[3] !== "resourcegroups" || !parts[4]) {
    // Subscription-level resources (`/subscriptions/<id>/providers/…`) are resources too.
    return parts[3] === "providers" && parts.length >= 7 ? "resource" : undefined;
  }
  if (parts.length === 5) return "resourceGroup";
  return parts[5] === "providers" && parts.length >= 9 ? "resource" : undefined;
}

/** The subscription ID of a scope at or below a subscription (lower-cased). */
export function subscriptionOfScope(scope: string): string | undefined {
  const m = /^\/subscriptions\/([^/]+)/.exec(scope);
  return m?.[1];
}

/**
 * The resource provider of a resource scope: the namespace after the last `/providers/`
 * (an extension resource such as `…/providers/Microsoft.Insights/diagnosticSettings/x`
 * belongs to its own provider). Original case kept.
 */
export function providerOfResourceId(id: string): string | undefined {
  const at = id.toLowerCase().lastIndexOf("/providers/");
  if (at < 0) return undefined;
  const ns = id.slice(at + "/providers/".length).split("/")[0];
  return ns || undefined;
}

/**
 * Where inherited assignments come from: the management groups above the subscription
 * (root first), or, when the chain is not known, every management group named in the input.
 */
export interface ScopeTree {
  subscription: string;
  managementGroups: readonly string[];
  /** True when `managementGroups` is the real chain above the subscription. */
  chainKnown: boolean;
}

/**
 * A scope and every scope above it, all normalized: `/`, the management groups, then each
 * path prefix from the subscription down (a nested resource inherits from its parents).
 */
export function ancestorsOrSelf(scope: string, tree: ScopeTree): string[] {
  if (scope === "/") return ["/"];
  if (scope.startsWith(MG_PREFIX)) {
    const at = tree.chainKnown ? tree.managementGroups.indexOf(scope) : -1;
    return at >= 0 ? ["/", ...tree.managementGroups.slice(0, at + 1)] : ["/", scope];
  }
  const out = ["/", ...tree.managementGroups];
  const parts = scope.split("/");
  let prefix = "";
  for (let i = 1; i < parts.length; i++) {
    prefix += `/${parts[i]}`;
    if (i >= 2) out.push(prefix);
  }
  return out;
}

/** `inner` is `outer` or below it, by path (management groups by the tree's chain). */
export function isAtOrBelow(inner: string, outer: string, tree: ScopeTree): boolean {
  if (outer === "/" || inner === outer) return true;
  if (outer.startsWith(MG_PREFIX)) return ancestorsOrSelf(inner, tree).includes(outer);
  return inner.startsWith(`${outer}/`);
}
