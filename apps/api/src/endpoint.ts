import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { ambientDeps } from "./ambient-transaction.ts";
import { type AuditSpec, auditTrail, reachesHandler } from "./audit-trail.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { type Access, guardsFor } from "./guards.ts";
import { changesState, type RoutePermission, SCOPE_EXTENSION } from "./permissions.ts";

export type { Access } from "./guards.ts";

/** A route of the API: its OpenAPI definition, who may call it, and its handler. */
export interface EndpointSpec<R extends RouteConfig> {
  route: R;
  /**
   * What a tenant's key needs (`permissions.ts`); undeclared, every tenant key is refused and the
   * scope matrix test fails. Operator and public routes declare none.
   */
  permission?: RoutePermission;
  access: Access;
  /** How the audit trail reads the state a state-changing route changes (old and new values). */
  audit?: AuditSpec;
  handler: (deps: AppDeps) => RouteHandler<R, AppEnv>;
}

/** The route table's view of an endpoint, as the app and the shared auth tests use it. */
export interface Endpoint {
  readonly method: string;
  /** OpenAPI form: `/partner/{partnerId}`. */
  readonly path: string;
  readonly operationId: string;
  readonly access: Access;
  readonly permission: RoutePermission | undefined;
  /** Each request that reaches its handler writes one audit event. */
  readonly changesState: boolean;
  readonly takesBody: boolean;
  register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void;
}

export const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/**
 * Read-your-writes in this process: a write under `/partner/{partnerId}` makes the partner's
 * cached reads stale before its answer leaves. Other processes hear of it from the change feed.
 */
function invalidatesPartner(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const partnerId = c.req.param("partnerId");
    if (partnerId) deps.readCache.invalidate(partnerId);
  };
}

export function defineEndpoint<R extends RouteConfig>(spec: EndpointSpec<R>): Endpoint {
  const { route, access, permission } = spec;
  const operationId = route.operationId ?? `${route.method} ${route.path}`;
  const audited = changesState({
    method: route.method,
    access,
    permission,
    audited: spec.audit !== undefined,
  });
  if (permission !== undefined) {
    // The OpenAPI document states each route's scope, in words and as an extension.
    const scope = permission === "any-key" ? "any valid API key" : `the \`${permission}\` scope`;
    Object.assign(route, {
      description: `${route.description ?? ""}\n\nNeeds ${scope}.`.trim(),
      [SCOPE_EXTENSION]: permission,
    });
  }
  return {
    method: route.method,
    path: route.path,
    operationId,
    access,
    permission,
    changesState: audited,
    takesBody: route.request?.body !== undefined,
    register(app, deps) {
      // Hono runs handlers of one method and path in registration order: the guards first,
      // then the OpenAPI route's own validators (which find nothing left to reject) and handler.
      app.on(
        [route.method.toUpperCase()],
        [toHonoPath(route.path)],
        ...(route.method !== "get" && route.path.includes("{partnerId}")
          ? [invalidatesPartner(deps)]
          : []),
        ...guardsFor(route, access, permission, deps),
        ...(audited
          ? [
              auditTrail(
                { method: route.method, path: route.path, operationId, access, audit: spec.audit },
                deps,
              ),
            ]
          : []),
      );
      const handler = spec.handler(audited ? ambientDeps(deps) : deps);
      app.openapi(route, audited ? reachesHandler(handler) : handler);
    },
  };
}
