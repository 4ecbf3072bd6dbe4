import { deleteApiKey, insertApiKey } from "@sightline/db";
import { ApiKeyId, CreateApiKeyRequest, CreatedApiKey } from "@sightline/domain";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { generateApiKey, hashKey } from "../keys.ts";
import { defineRoute } from "../route.ts";
import { bodyErrors, forbidden, notFound, unauthorized, validationFailed } from "./responses.ts";

/** Issues a key for a partner or a direct customer; the key is shown here once, never again. */
export const createApiKey = defineRoute({
  method: "post",
  path: "/admin/api-keys",
  operationId: "createApiKey",
  summary: "Issue an API key (operator only)",
  tags: ["Administration"],
  access: { kind: "operator", operation: "issue API keys" },
  body: CreateApiKeyRequest,
  responses: {
    201: { description: "Created; `key` is shown only in this response", schema: CreatedApiKey },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    404: { ...notFound[404], description: "The direct customer is not registered" },
    ...bodyErrors,
  },
  handler: async ({ body, deps }) => {
    const { id, key } = generateApiKey();
    const row = await insertApiKey(deps.db, { id, keyHash: hashKey(key), ...body });
    if (!row) {
      const customerId = "customerId" in body ? body.customerId : "";
      throw new AppError(
        "NOT_FOUND",
        `Direct customer ${customerId} is not registered: PUT /admin/customers/${customerId} first`,
      );
    }
    return {
      status: 201,
      body: {
        id: row.id,
        key,
        ...(row.partnerId ? { partnerId: row.partnerId } : {}),
        ...(row.customerId ? { customerId: row.customerId } : {}),
        createdAt: row.createdAt.toISOString(),
      },
    };
  },
});

export const revokeApiKey = defineRoute({
  method: "delete",
  path: "/admin/api-keys/{id}",
  operationId: "revokeApiKey",
  summary: "Revoke an API key (operator only)",
  tags: ["Administration"],
  access: { kind: "operator", operation: "revoke API keys" },
  params: z.object({ id: ApiKeyId }),
  responses: {
    200: { description: "Revoked", schema: z.object({ id: ApiKeyId }) },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    ...notFound,
  },
  handler: async ({ params, deps }) => {
    const deleted = await deleteApiKey(deps.db, params.id);
    deps.callerCache.evictKey(params.id);
    if (!deleted) {
      throw new AppError("NOT_FOUND", `API key ${params.id} does not exist`);
    }
    return { status: 200, body: { id: params.id } };
  },
});
