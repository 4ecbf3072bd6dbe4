import type { ApiClient, Permission } from "@sightline/domain";

/**
 * What a route needs of a tenant's key: one of the four permissions, or `any-key` (any valid
 * key: `GET /whoami`). Operator and public routes declare none.
 */
export type RoutePermission = Permission | "any-key";

/** Where a route's permission is stated in its OpenAPI operation. */
export const SCOPE_EXTENSION = "x-sightline-scope";

/** Whether a key holds a route's permission; the operator holds every one. */
export function holdsPermission(client: ApiClient, needed: RoutePermission | undefined): boolean {
  if (client.kind === "operator") return true;
  if (needed === undefined) return false; // a route that declares none refuses every key
  return needed === "any-key" || (client.permissions ?? []).includes(needed);
}

/**
 * Whether a route changes state, so that each request reaching its handler writes one audit
 * event: the writes of `trigger`, `configure` and `keys` routes and the operator's. A GET only
 * when it says how it is audited (delivery verification issues a token on first ask).
 */
export function changesState(route: {
  method: string;
  access: { kind: string };
  permission?: RoutePermission | undefined;
  audited?: boolean;
}): boolean {
  if (route.method.toLowerCase() === "get") return route.audited === true;
  if (route.access.kind === "operator") return true;
  return (
    route.permission === "trigger" ||
    route.permission === "configure" ||
    route.permission === "keys"
  );
}
