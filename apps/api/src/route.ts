import { zValidator } from "@hono/zod-validator";
import { type Caller, toValidationIssues } from "@sightline/domain";
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { AppDeps, AppEnv } from "./context.ts";
import { AppError, invalidInput } from "./errors.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { jsonBody } from "./middleware/json-body.ts";

export type Method = "get" | "put" | "post" | "delete";

/** Who may call a route: the operator only, anyone authenticated, a scoped caller, or anyone. */
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

export type RouteResult =
  | { status: ContentfulStatusCode; body: unknown; headers?: Record<string, string> }
  /** A body serialised beforehand (static documents), or none (304). */
  | { status: StatusCode; json: string | null; headers?: Record<string, string> };

export interface RouteDef<P extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: Method;
  /** OpenAPI form: `/partner/{partnerId}`. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  access: Access;
  params?: P;
  body?: B;
  /** Body members that must equal the path parameter of the same name. */
  bodyMatchesPath?: string[];
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  handler: (input: {
    params: z.output<P>;
    body: z.output<B>;
    caller: Caller | undefined;
    deps: AppDeps;
    c: Context<AppEnv>;
  }) => Promise<RouteResult> | RouteResult;
}

export function defineRoute<P extends z.ZodType, B extends z.ZodType>(
  route: RouteDef<P, B>,
): RouteDef {
  return route as unknown as RouteDef;
}

export function isAllowed(
  caller: Caller,
  scope: { partnerId: string } | { customerId: string },
): boolean {
  if (caller.kind === "operator") return true;
  if ("partnerId" in scope)
    return caller.kind === "partner" && caller.partnerId === scope.partnerId;
  return caller.kind === "customer" && caller.customerId === scope.customerId;
}

function authorize(access: Access): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (access.kind === "operator" && caller.kind !== "operator") {
      throw new AppError("FORBIDDEN", `Caller is not authorized to ${access.operation}`);
    }
    if (access.kind === "scoped") {
      const params = c.req.param() as Record<string, string>;
      if (!isAllowed(caller, access.scope(params))) {
        throw new AppError("FORBIDDEN", `Caller is not authorized to ${access.operation(params)}`);
      }
    }
    await next();
  };
}

export const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/**
 * Order of checks: authenticate (401), path parameters (400), scope (403), body (415/413/400),
 * then the handler. Checking scope before the body means a stranger learns nothing from it.
 */
export function registerRoute(app: Hono<AppEnv>, deps: AppDeps, route: RouteDef): void {
  const chain: MiddlewareHandler<AppEnv>[] = [];
  if (route.access.kind !== "public") chain.push(authenticate(deps));
  if (route.params) {
    chain.push(
      zValidator("param", route.params, (result) => {
        if (!result.success)
          throw invalidInput("path parameter", toValidationIssues(result.error.issues));
      }),
    );
  }
  if (route.access.kind !== "public" && route.access.kind !== "authenticated")
    chain.push(authorize(route.access));
  if (route.body) {
    chain.push(jsonBody());
    chain.push(
      zValidator("json", route.body, async (result, c) => {
        const params = c.req.param() as Record<string, string>;
        const raw: unknown = result.success ? result.data : await c.req.json();
        const body = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
        const mismatches = (route.bodyMatchesPath ?? [])
          .filter((name) => body[name] !== undefined && body[name] !== params[name])
          .map((name) => ({
            path: name,
            message: `must equal the path parameter '${params[name]}'`,
          }));
        const issues = result.success ? [] : toValidationIssues(result.error.issues);
        const all = [
          ...mismatches,
          ...issues.filter((i) => !mismatches.some((m) => m.path === i.path)),
        ];
        if (all.length > 0) throw invalidInput("request body", all);
      }),
    );
  }
  const handler: MiddlewareHandler<AppEnv> = async (c) => {
    const valid = c.req as unknown as { valid(target: string): unknown };
    const result = await route.handler({
      params: route.params ? valid.valid("param") : {},
      body: route.body ? valid.valid("json") : undefined,
      caller: c.get("caller"),
      deps,
      c,
    });
    // Read-your-writes in this process; other processes hear of the write from the change feed.
    const partnerId = c.req.param("partnerId");
    if (route.method !== "get" && partnerId) deps.readCache.invalidate(partnerId);
    for (const [name, value] of Object.entries(result.headers ?? {})) c.header(name, value);
    if ("json" in result) {
      if (result.json === null) return c.body(null, result.status);
      return c.body(result.json, result.status as ContentfulStatusCode, {
        "content-type": "application/json",
      });
    }
    return c.json(result.body as object, result.status);
  };
  // Hono's overloads cannot type a variable-length chain; the handlers are plain middleware.
  const on = app.on as unknown as (
    method: string,
    path: string,
    ...handlers: MiddlewareHandler<AppEnv>[]
  ) => void;
  on(route.method.toUpperCase(), toHonoPath(route.path), ...chain, handler);
}
