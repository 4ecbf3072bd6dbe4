import { createRoute } from "@hono/zod-openapi";
import { deleteApiKey, insertApiKey } from "@sightline/db";
import { ApiKeyId, AppError, CreateApiKeyRequest, CreatedApiKey } from "@sightline/domain";
import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { generateApiKey, hashKey } from "../keys.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";

/** Issues a key for a partner or a direct customer; the key is shown here once, never again. */
export const createApiKey = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/admin/api-keys",
    operationId: "createApiKey",
    summary: "Issue an API key (operator only)",
    description:
      "Issues a key scoped to one partner or one registered direct customer. The key is returned only in this response; Sightline stores its SHA-256 hash.",
    tags: ["Administration"],
    request: jsonBody(CreateApiKeyRequest, "The key's scope: `partnerId` or `customerId`"),
    responses: {
      201: ok(CreatedApiKey, "Created; `key` is shown only in this response"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  access: { kind: "operator", operation: "issue API keys" },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const { id, key } = generateApiKey();
    const row = await insertApiKey(deps.db, { id, keyHash: hashKey(key), ...body });
    if (!row) {
      const customerId = "customerId" in body ? body.customerId : "";
      throw new AppError(
        "NOT_FOUND",
        `Direct customer ${customerId} is not registered: PUT /admin/customers/${customerId} first`,
      );
    }
    return c.json(
      {
        id: row.id,
        key,
        ...(row.partnerId ? { partnerId: row.partnerId } : {}),
        ...(row.customerId ? { customerId: row.customerId } : {}),
        createdAt: row.createdAt.toISOString(),
      },
      201,
    );
  },
});

export const revokeApiKey = defineEndpoint({
  route: createRoute({
    method: "delete",
    path: "/admin/api-keys/{id}",
    operationId: "revokeApiKey",
    summary: "Revoke an API key (operator only)",
    description: "The key stops working at once in this process and within seconds in every other.",
    tags: ["Administration"],
    request: { params: z.object({ id: ApiKeyId }) },
    responses: {
      200: ok(z.object({ id: ApiKeyId }), "Revoked"),
      ...errorsOf(400, 403, 404),
    },
  }),
  access: { kind: "operator", operation: "revoke API keys" },
  handler: (deps) => async (c) => {
    const { id } = c.req.valid("param");
    const deleted = await deleteApiKey(deps.db, id);
    deps.apiClientCache.evictKey(id);
    if (!deleted) throw new AppError("NOT_FOUND", `API key ${id} does not exist`);
    return c.json({ id }, 200);
  },
});
