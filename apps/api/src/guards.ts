import type { RouteConfig } from "@hono/zod-openapi";
import { type ApiClient, AppError, invalidInput, toValidationIssues } from "@sightline/domain";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { tenantOfPath } from "./audit-trail.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { holdsPermission, type RoutePermission } from "./permissions.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Who may call a route: anyone, anyone authenticated, the operator only, or a scoped client. */
export type Access =
  | { kind: "public" }
  | { kind: "authenticated" }
  | { kind: "operator"; operation: string }
  | {
      kind: "scoped";
      /** The denied operation, in words, with the identifiers from the request (section 7). */
      operation: (params: Record<string, string>) => string;
      scope: (params: Record<string, string>) => { partnerId: string } | { customerId: string };
    };

export function isAllowed(
  client: ApiClient,
  scope: { partnerId: string } | { customerId: string },
): boolean {
  if (client.kind === "operator") return true;
  if ("partnerId" in scope)
    return client.kind === "partner" && client.partnerId === scope.partnerId;
  return client.kind === "customer" && client.customerId === scope.customerId;
}

function lacks(permission: RoutePermission | undefined): string {
  return permission === undefined
    ? "the route declares no scope, so no API key may call it"
    : `the API key lacks the '${permission}' scope`;
}

/**
 * The operator rule, the tenant of the path, then the key's permission for the route. A valid
 * key refused on a tenant's path is written into that tenant's audit trail (rate-limited).
 */
function authorize(
  route: RouteConfig,
  access: Access,
  permission: RoutePermission | undefined,
  deps: AppDeps,
): MiddlewareHandler<AppEnv> {
  const refused = {
    method: route.method,
    path: route.path,
    operationId: route.operationId ?? `${route.method} ${route.path}`,
  };
  return async (c, next) => {
    const client = c.get("apiClient");
    if (access.kind === "operator" && client.kind !== "operator")
      throw new AppError("FORBIDDEN", `Caller is not authorized to ${access.operation}`);
    if (access.kind === "scoped") {
      const params = c.req.param() as Record<string, string>;
      const operation = `Caller is not authorized to ${access.operation(params)}`;
      const tenant = tenantOfPath(access, params);
      if (!isAllowed(client, access.scope(params))) {
        await deps.refusals.record(deps.db, c, tenant, refused, "another tenant's path");
        throw new AppError("FORBIDDEN", operation);
      }
      if (!holdsPermission(client, permission)) {
        await deps.refusals.record(deps.db, c, tenant, refused, lacks(permission));
        throw new AppError("FORBIDDEN", `${operation}: ${lacks(permission)}`);
      }
    }
    if (access.kind === "authenticated" && !holdsPermission(client, permission))
      throw new AppError(
        "FORBIDDEN",
        `Caller is not authorized to call ${route.path}: ${lacks(permission)}`,
      );
    await next();
  };
}

type ParamsSchema = NonNullable<NonNullable<RouteConfig["request"]>["params"]>;

function validateParams(schema: ParamsSchema): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const result = schema.safeParse(c.req.param());
    if (!result.success)
      throw invalidInput("path parameter", toValidationIssues(result.error.issues));
    await next();
  };
}

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

const requireJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!jsonMediaType.test(mediaType)) {
    const got = mediaType ? `'${mediaType.slice(0, 100)}'` : "none";
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/json (got ${got})`,
    );
  }
  await next();
};

const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB)`);
  },
});

/**
 * The checks before a route's own validation, in this order: authenticate (401), path
 * parameters (400), tenant and permission (403), then the body's media type (415) and size (413). Checking scope
 * before the body means a client outside its scope learns nothing from sending one.
 */
export function guardsFor(
  route: RouteConfig,
  access: Access,
  permission: RoutePermission | undefined,
  deps: AppDeps,
): MiddlewareHandler<AppEnv>[] {
  const guards: MiddlewareHandler<AppEnv>[] = [];
  if (access.kind !== "public") guards.push(authenticate(deps));
  if (route.request?.params) guards.push(validateParams(route.request.params));
  if (access.kind !== "public") guards.push(authorize(route, access, permission, deps));
  if (route.request?.body) guards.push(requireJson, limitBody);
  return guards;
}
