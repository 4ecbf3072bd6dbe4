import { createRoute } from "@hono/zod-openapi";
import { Caller, type Caller as CallerType } from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";

/**
 * Extension of the contract: whom the caller's key acts for, so that a client (the console, an
 * agent) can find its own tenants without being told its identifiers again.
 */
export const whoami = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/whoami",
    operationId: "whoami",
    summary: "Whom the API key acts for",
    description:
      "Extension of the contract. The operator, a partner (`partnerId`) or a direct customer (`customerId`): the scope every other route checks. Never returns the key or its ID.",
    tags: ["Operations"],
    responses: { 200: ok(Caller, "The key's scope"), ...errorsOf() },
  }),
  access: { kind: "authenticated" },
  handler: () => async (c) => {
    const client = c.get("apiClient");
    const caller: CallerType =
      client.kind === "partner"
        ? { kind: "partner", partnerId: client.partnerId }
        : client.kind === "customer"
          ? { kind: "customer", customerId: client.customerId }
          : { kind: "operator" };
    return c.json(caller, 200);
  },
});
