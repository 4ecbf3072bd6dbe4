import { z } from "zod";
import { defineRoute } from "../route.ts";

const Health = z.object({ status: z.literal("ok") });

/** Liveness: the process answers. Public, for load balancers and orchestrators. */
export const healthz = defineRoute({
  method: "get",
  path: "/healthz",
  operationId: "healthz",
  summary: "Liveness probe",
  tags: ["Operations"],
  access: { kind: "public" },
  responses: { 200: { description: "The process is up", schema: Health } },
  handler: () => ({ status: 200, body: { status: "ok" } }),
});

/** Readiness: the database answers within a second. */
export const readyz = defineRoute({
  method: "get",
  path: "/readyz",
  operationId: "readyz",
  summary: "Readiness probe",
  tags: ["Operations"],
  access: { kind: "public" },
  responses: {
    200: { description: "The database is reachable", schema: Health },
    503: { description: "The database is not reachable" },
  },
  handler: async ({ deps }) => {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("timeout")), 1000).unref(),
    );
    try {
      await Promise.race([deps.pingDatabase(), timeout]);
    } catch {
      return { status: 503, body: { message: "Database is not reachable" } };
    }
    return { status: 200, body: { status: "ok" } };
  },
});
