import { createRoute } from "@hono/zod-openapi";
import { QueueFigures } from "@sightline/domain";
import { readQueueFigures } from "@sightline/services";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";

/**
 * The job queue as the operator watches it. Not in `/readyz`: that probe is public and asked
 * every few seconds, and these figures name tenants.
 */
export const getQueueFigures = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/admin/queues",
    operationId: "getQueueFigures",
    summary: "The job queue's lanes, oldest waits and lost leases (operator only)",
    description:
      "Per lane (analysis, event, alert): the jobs waiting (due and not yet taken by a worker: the depth), scheduled for later (a retry's back-off, an event step's quiet period) and running, and how long the oldest waiting job has waited, in all and per tenant (a partner with all its customers, or a direct customer), the longest wait first. The running jobs' leases held now, and per queue the leases lost so far (each a worker that died or hung) and when the last was. Workers log the same figures every minute (`job queue`). What to do about them: docs/operating.md.",
    tags: ["Operations"],
    responses: { 200: ok(QueueFigures, "The queue now"), ...errorsOf(403) },
  }),
  access: { kind: "operator", operation: "read the job queue's figures" },
  handler: (deps) => async (c) => c.json(await readQueueFigures(deps.services), 200),
});
