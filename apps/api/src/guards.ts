import type { RouteConfig } from "@hono/zod-openapi";
import { type ApiClient, AppError, invalidInput, toValidationIssues } from "@sightline/domain";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppDeps, AppEnv } from "./context.ts";
import { authenticate } from "./middleware/authenticate.ts";

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

function authorize(access: Access): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const client = c.get("apiClient");
    if (access.kind === "operator" && client.kind !== "operator")
      throw new AppError("FORBIDDEN", `Caller is not authorized to ${access.operation}`);
    if (access.kind === "scoped") {
      const params = c.req.param() as Record<string, string>;
      if (!isAllowed(client, access.scope(params)))
        throw new AppError("FORBIDDEN", `Caller is not authorized to ${access.operation(params)}`);
    }
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
 * parameters (400), scope (403), then the body's media type (415) and size (413). Checking scope
 * before the body means a client outside its scope learns nothing from sending one.
 */
export function guardsFor(
  route: RouteConfig,
  access: Access,
  deps: AppDeps,
): MiddlewareHandler<AppEnv>[] {
  const guards: MiddlewareHandler<AppEnv>[] = [];
  if (access.kind !== "public") guards.push(authenticate(deps));
  if (route.request?.params) guards.push(validateParams(route.request.params));
  if (access.kind === "operator" || access.kind === "scoped") guards.push(authorize(access));
  if (route.request?.body) guards.push(requireJson, limitBody);
  return guards;
}
