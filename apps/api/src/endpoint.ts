import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "./context.ts";
import { type Access, guardsFor } from "./guards.ts";

export type { Access } from "./guards.ts";

/** A route of the API: its OpenAPI definition, who may call it, and its handler. */
export interface EndpointSpec<R extends RouteConfig> {
  route: R;
  access: Access;
  handler: (deps: AppDeps) => RouteHandler<R, AppEnv>;
}

/** The route table's view of an endpoint, as the app and the shared auth tests use it. */
export interface Endpoint {
  readonly method: string;
  /** OpenAPI form: `/partner/{partnerId}`. */
  readonly path: string;
  readonly operationId: string;
  readonly access: Access;
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
  const { route, access } = spec;
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId ?? `${route.method} ${route.path}`,
    access,
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
        ...guardsFor(route, access, deps),
      );
      app.openapi(route, spec.handler(deps));
    },
  };
}
