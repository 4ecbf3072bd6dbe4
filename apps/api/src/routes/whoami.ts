import { createRoute } from "@hono/zod-openapi";
import { WhoAmI, type WhoAmI as WhoAmIType } from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";

/**
 * Extension of the contract: whom the caller's key acts for and what it may do, so that a client
 * (the console, an agent) finds its own tenants and hides what its key cannot do.
 */
export const whoami = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/whoami",
    operationId: "whoami",
    summary: "Whom the API key acts for, and its scopes",
    description:
      "Extension of the contract. The operator, or a partner (`partnerId`) or a direct customer (`customerId`) with the key's `id`, `name`, `scopes` and `expiresAt`. Never returns the key itself.",
    tags: ["Operations"],
    responses: { 200: ok(WhoAmI, "The key's tenant and scopes"), ...errorsOf() },
  }),
  permission: "any-key",
  access: { kind: "authenticated" },
  handler: () => async (c) => {
    const client = c.get("apiClient");
    if (client.kind === "operator") return c.json({ kind: "operator" } satisfies WhoAmIType, 200);
    const key = {
      id: client.keyId,
      name: client.keyName ?? `key ${client.keyId}`,
      scopes: [...(client.permissions ?? [])],
      expiresAt: client.expiresAt?.toISOString() ?? null,
    };
    const caller: WhoAmIType =
      client.kind === "partner"
        ? { kind: "partner", partnerId: client.partnerId, ...key }
        : { kind: "customer", customerId: client.customerId, ...key };
    return c.json(caller, 200);
  },
});
