import { upsertDirectCustomer } from "@sightline/db";
import { CustomerId, DirectCustomerConfig, DirectCustomerRecord } from "@sightline/domain";
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { bodyErrors, forbidden, unauthorized, validationFailed } from "./responses.ts";

/** Registers a direct customer, so that keys can be issued to it (operator only). */
export const putDirectCustomer = defineRoute({
  method: "put",
  path: "/admin/customers/{customerId}",
  operationId: "putDirectCustomer",
  summary: "Register a direct customer (operator only)",
  tags: ["Administration"],
  access: { kind: "operator", operation: "register direct customers" },
  params: z.object({ customerId: CustomerId }),
  body: DirectCustomerConfig,
  bodyMatchesPath: ["customerId"],
  responses: {
    200: { description: "Registered", schema: DirectCustomerRecord },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    ...bodyErrors,
  },
  handler: async ({ body, deps }) => ({
    status: 200,
    body: await upsertDirectCustomer(deps.db, body),
  }),
});
