import { getConnInfo } from "@hono/node-server/conninfo";
import { OpenAPIHono } from "@hono/zod-openapi";
import { isDatabaseUnavailable } from "@sightline/db";
import { AppError } from "@sightline/domain";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "./context.ts";
import type { Endpoint } from "./endpoint.ts";
import { HTTP_STATUS, httpHeadersOf } from "./http-errors.ts";
import { registerMcp } from "./mcp.ts";
import { requestContext } from "./middleware/request-context.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { enforceRateLimit, type TokenBuckets } from "./rate-limits.ts";
import { registerConsole } from "./routes/console.ts";
import { registerDocs } from "./routes/docs.ts";
import { endpoints as defaultEndpoints } from "./routes/index.ts";
import { validationHook } from "./validation-hook.ts";

function pathPattern(path: string): RegExp {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${path
      .split(/\{\w+\}/)
      .map(escapeRegExp)
      .join("[^/]+")}$`,
  );
}

/** The methods each path accepts, for 405 answers with `Allow`. */
function allowedMethods(endpoints: readonly Endpoint[]): (path: string) => string[] {
  const patterns = endpoints.map((e) => ({
    method: e.method.toUpperCase(),
    pattern: pathPattern(e.path),
  }));
  return (path) => [...new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method))];
}

/**
 * The address a request came from; "unknown" where there is no socket (in-process tests).
 * Behind a trusted proxy, the address that proxy saw: the last entry of X-Forwarded-For.
 */
function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").pop()?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Per-client token buckets, before any key is looked up: guessing keys, or flooding with any
 * of them, is bounded per address. Health probes are not counted.
 */
function clientRateLimit(buckets: TokenBuckets, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // EventBridge posts events from addresses AWS shares between its customers: the event
    // intake is limited per event source instead (`perEventSource`).
    if (c.req.path === "/healthz" || c.req.path === "/readyz" || c.req.path === "/events/aws")
      return next();
    enforceRateLimit(
      c,
      buckets.take(clientAddress(c, trustProxy)),
      "Too many requests from this address",
    );
    return next();
  };
}

/** What a 503 for an unavailable database tells the client to wait. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Builds the HTTP application from its dependencies; no I/O happens here. */
export function createApp(
  deps: AppDeps,
  endpoints: readonly Endpoint[] = defaultEndpoints,
): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(requestContext(deps.logger));
  if (deps.https)
    app.use(async (c, next) => {
      // Set before the response exists, like the request id: no copy of the response.
      c.header("strict-transport-security", "max-age=31536000; includeSubDomains");
      return next();
    });
  if (deps.rateLimits?.perClient)
    app.use(clientRateLimit(deps.rateLimits.perClient, deps.trustProxy ?? false));
  for (const endpoint of endpoints) endpoint.register(app, deps);
  registerMcp(app, deps);
  registerDocs(app, buildOpenApiDocument(app, deps.publicUrl));
  registerConsole(app);

  const allowed = allowedMethods(endpoints);
  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.length > 0) {
      throw new AppError(
        "METHOD_NOT_ALLOWED",
        `Method ${c.req.method} is not allowed on ${c.req.path}`,
        { details: { allowedMethods: methods } },
      );
    }
    throw new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
  });

  app.onError((error, c) => {
    const requestId = c.get("requestId");
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(httpHeadersOf(error.details)))
        c.header(name, value);
      return c.json(
        {
          message: error.message,
          code: error.code,
          requestId,
          ...(error.issues ? { issues: error.issues } : {}),
        },
        HTTP_STATUS[error.code],
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ message: error.message, code: "INVALID_INPUT", requestId }, error.status);
    }
    // A database that is down, or too busy to answer within its timeouts: retry, never a 500.
    if (isDatabaseUnavailable(error)) {
      c.get("logger").warn({ err: error }, "database unavailable");
      c.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
      return c.json(
        {
          message: "The database is unavailable or busy: retry shortly",
          code: "UNAVAILABLE",
          requestId,
        },
        503,
      );
    }
    // Unknown errors stay opaque to the caller: database messages contain SQL.
    c.get("logger").error({ err: error }, "unhandled error");
    return c.json({ message: "Internal server error", code: "INTERNAL", requestId }, 500);
  });
  return app;
}
