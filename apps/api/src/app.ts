import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "./context.ts";
import { describeError } from "./describe-error.ts";
import { AppError } from "./errors.ts";
import { requestContext } from "./middleware/request-context.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { type RouteDef, registerRoute } from "./route.ts";
import { registerDocs } from "./routes/docs.ts";
import { routes as defaultRoutes } from "./routes/index.ts";

export const API_VERSION = "0.1.0";

function pathPattern(path: string): RegExp {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${path
      .split(/\{\w+\}/)
      .map(escapeRegExp)
      .join("[^/]+")}$`,
  );
}

/** Builds the HTTP application from its dependencies; no I/O happens here. */
export function createApp(
  deps: AppDeps,
  routes: readonly RouteDef[] = defaultRoutes,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestContext(deps.logger));
  for (const route of routes) registerRoute(app, deps, route);
  registerDocs(app, buildOpenApiDocument(routes, API_VERSION));

  const patterns = routes.map((route) => ({
    method: route.method.toUpperCase(),
    pattern: pathPattern(route.path),
  }));
  app.notFound((c) => {
    const allowed = patterns.filter((p) => p.pattern.test(c.req.path)).map((p) => p.method);
    if (allowed.length > 0) {
      throw new AppError(
        "METHOD_NOT_ALLOWED",
        `Method ${c.req.method} is not allowed on ${c.req.path}`,
        undefined,
        {
          allow: [...new Set(allowed)].join(", "),
        },
      );
    }
    throw new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
  });

  app.onError((error, c) => {
    const requestId = c.get("requestId");
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(
        {
          message: error.message,
          code: error.code,
          requestId,
          ...(error.issues ? { issues: error.issues } : {}),
        },
        error.status,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ message: error.message, code: "INVALID_INPUT", requestId }, error.status);
    }
    // Unknown errors stay opaque: database messages contain SQL.
    c.get("logger").error("unhandled error", describeError(error));
    return c.json({ message: "Internal server error", code: "INTERNAL", requestId }, 500);
  });
  return app;
}
