import { createRoute } from "@hono/zod-openapi";
import { revokeApiKey as revokeStoredKey } from "@sightline/db";
import { ApiKeyId, AppError, CreateApiKeyRequest, CreatedApiKey } from "@sightline/domain";
import { z } from "zod";
import { noteAudit } from "../audit-trail.ts";
import { defineEndpoint } from "../endpoint.ts";
import { checkKeyExpiry, createdKeyChanges, issueApiKey } from "../key-issuing.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";

/** Issues a key for a partner or a direct customer; the key is shown here once, never again. */
export const createApiKey = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/admin/api-keys",
    operationId: "createApiKey",
    summary: "Issue an API key (operator only)",
    description:
      "Issues a key scoped to one partner or one registered direct customer, with a `name`, `scopes` (`read`, `trigger`, `configure`, `keys`; all four unless told) and an optional `expiresAt` (required, and at most `SIGHTLINE_KEY_MAX_DAYS` ahead, when that is set). The key is returned only in this response; Sightline stores its SHA-256 hash.",
    tags: ["Administration"],
    request: jsonBody(
      CreateApiKeyRequest,
      "The key's tenant (`partnerId` or `customerId`) and settings",
    ),
    responses: {
      201: ok(CreatedApiKey, "Created; `key` is shown only in this response"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  access: { kind: "operator", operation: "issue API keys" },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const tenant =
      "partnerId" in body ? { partnerId: body.partnerId } : { customerId: body.customerId };
    const customerId = tenant.customerId;
    noteAudit(c, { tenant: tenant.partnerId ?? customerId });
    checkKeyExpiry(body.expiresAt, deps.keyMaxDays, new Date());
    const issued = await issueApiKey(deps.db, tenant, body);
    if (!issued)
      throw new AppError(
        "NOT_FOUND",
        `Direct customer ${customerId} is not registered: PUT /admin/customers/${customerId} first`,
      );
    const { row, key } = issued;
    noteAudit(c, { changes: createdKeyChanges(row) });
    return c.json(
      {
        id: row.id,
        key,
        name: row.name,
        scopes: row.permissions as CreatedApiKey["scopes"],
        expiresAt: row.expiresAt?.toISOString() ?? null,
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
    description:
      "The key stops working at once in this process and within seconds in every other. Its record stays, marked revoked, for the audit trail.",
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
    const row = await revokeStoredKey(deps.db, id, new Date());
    deps.apiClientCache.evictKey(id);
    if (row) noteAudit(c, { tenant: row.partnerId ?? row.customerId ?? "operator" });
    if (!row || row.revokedAt)
      throw new AppError("NOT_FOUND", `API key ${id} does not exist or is already revoked`);
    noteAudit(c, {
      changes: { keyId: { old: null, new: id }, revoked: { old: false, new: true } },
    });
    return c.json({ id }, 200);
  },
});
