import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { errors, ok } from "../openapi.ts";

const Health = z.object({ status: z.literal("ok") });
const Unready = z.object({ message: z.string() });

/** Liveness: the process answers. Public, for load balancers and orchestrators. */
export const healthz = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/healthz",
    operationId: "healthz",
    summary: "Liveness probe",
    description: "Answers as long as the process runs. Needs no API key.",
    tags: ["Operations"],
    security: [],
    responses: { 200: ok(Health, "The process is up"), 405: errors[405] },
  }),
  access: { kind: "public" },
  handler: () => (c) => c.json({ status: "ok" as const }, 200),
});

/** Readiness: the database answers within a second, with this build's migrations applied. */
export const readyz = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/readyz",
    operationId: "readyz",
    summary: "Readiness probe",
    description:
      "Answers 200 when the database answers within a second and carries this build's migrations. Needs no API key.",
    tags: ["Operations"],
    security: [],
    responses: {
      200: ok(Health, "The database is reachable and migrated"),
      503: ok(Unready, "The database is not reachable, or not migrated"),
      405: errors[405],
    },
  }),
  access: { kind: "public" },
  handler: (deps) => async (c) => {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("timeout")), 1000).unref(),
    );
    try {
      await Promise.race([deps.pingDatabase(), timeout]);
    } catch {
      return c.json({ message: "Database is not reachable or not migrated" }, 503);
    }
    return c.json({ status: "ok" as const }, 200);
  },
});
