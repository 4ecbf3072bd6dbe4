import { createRoute } from "@hono/zod-openapi";
import { getDirectCustomerView, upsertDirectCustomer } from "@sightline/db";
import { CustomerId, DirectCustomerConfig, DirectCustomerRecord } from "@sightline/domain";
import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";

/** Registers a direct customer, so that keys can be issued to it (operator only). */
export const putDirectCustomer = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/admin/customers/{customerId}",
    operationId: "putDirectCustomer",
    summary: "Register a direct customer (operator only)",
    description:
      "Registers or renames a direct customer; a customer key can be issued only to a registered one.",
    tags: ["Administration"],
    request: {
      params: z.object({ customerId: CustomerId }),
      ...jsonBody(DirectCustomerConfig, "The direct customer"),
    },
    responses: {
      200: ok(DirectCustomerRecord, "Registered"),
      ...errorsOf(403, ...bodyErrors),
    },
  }),
  audit: { state: (db, p) => getDirectCustomerView(db, p.customerId ?? "") },
  access: { kind: "operator", operation: "register direct customers" },
  handler: (deps) => async (c) =>
    c.json(await upsertDirectCustomer(deps.db, c.req.valid("json")), 200),
});
