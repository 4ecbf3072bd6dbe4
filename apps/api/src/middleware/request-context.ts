import { randomUUID } from "node:crypto";
import type { Logger } from "@sightline/logging";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";

const acceptableId = /^[\w.:-]{1,128}$/;

/** Request id (the caller's, if well-formed, or a new one) on every log line and response. */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && acceptableId.test(incoming) ? incoming : randomUUID();
    const requestLogger = logger.child({ requestId });
    c.set("requestId", requestId);
    c.set("logger", requestLogger);
    // Set before the response exists: a header added afterwards makes Hono copy the response.
    c.header("x-request-id", requestId);
    // Every answer is JSON or a document: a browser must not guess another type.
    c.header("x-content-type-options", "nosniff");
    const started = performance.now();
    await next();
    const client = c.get("apiClient");
    // A client that went away mid-request (its body cut short) is no error of ours. Only failed
    // answers are checked: reading `signal` makes an AbortController.
    const aborted = c.res.status >= 400 && c.req.raw.signal.aborted;
    requestLogger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...(client ? { caller: client.kind === "operator" ? "operator" : client.keyId } : {}),
      },
      aborted ? "client aborted the request" : "request",
    );
  };
}
