import { createRoute } from "@hono/zod-openapi";
import { type KeyTenant, listApiKeys, revokeApiKey as revokeStoredKey } from "@sightline/db";
import {
  ApiKeyId,
  ApiKeyRecord,
  AppError,
  CreatedApiKey,
  CreateTenantKeyRequest,
  CustomerId,
  exceedsCreator,
  PartnerId,
} from "@sightline/domain";
import { z } from "zod";
import { noteAudit } from "../audit-trail.ts";
import { defineEndpoint, type Endpoint } from "../endpoint.ts";
import { checkKeyExpiry, createdKeyChanges, issueApiKey, keyRecordOf } from "../key-issuing.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";

type Kind = "partner" | "customer";

const ROTATION =
  "To rotate a key: create its successor with the same scopes, move the client to it, then revoke the old one.";

/** A tenant's own keys (`keys` scope): list, create and revoke, under its partner or customer path. */
function tenantKeyRoutes(kind: Kind): { list: Endpoint; create: Endpoint; revoke: Endpoint } {
  const param = kind === "partner" ? "partnerId" : "customerId";
  const base = `/${kind}/{${param}}/api-keys`;
  const Path = z.object({ [param]: kind === "partner" ? PartnerId : CustomerId });
  const scope = kind === "partner" ? partnerScope : customerScope;
  const tenantOf = (p: Record<string, string>): KeyTenant =>
    kind === "partner" ? { partnerId: p[param] ?? "" } : { customerId: p[param] ?? "" };
  const who = (p: Record<string, string>) => `${kind} ${p[param]}`;
  const Kind = kind === "partner" ? "Partner" : "Customer";
  const tags = [kind === "partner" ? "Partners" : "Direct customers"];

  const list = defineEndpoint({
    route: createRoute({
      method: "get",
      path: base,
      operationId: `list${Kind}ApiKeys`,
      summary: `List the ${kind}'s API keys`,
      description: `Extension of the contract. Every key of the ${kind}, revoked ones included, oldest first; never a key's secret.`,
      tags,
      request: { params: Path },
      responses: { 200: ok(z.array(ApiKeyRecord), "The keys"), ...errorsOf(400, 403) },
    }),
    permission: "keys",
    access: { kind: "scoped", operation: (p) => `list the API keys of ${who(p)}`, scope },
    handler: (deps) => async (c) => {
      const rows = await listApiKeys(deps.db, tenantOf(c.req.param() as Record<string, string>));
      return c.json(rows.map(keyRecordOf), 200);
    },
  });

  const create = defineEndpoint({
    route: createRoute({
      method: "post",
      path: base,
      operationId: `create${Kind}ApiKey`,
      summary: `Create an API key of the ${kind}`,
      description: `Extension of the contract. \`{ name, scopes, expiresAt? }\`: the new key's scopes and expiry must be within the calling key's (403 otherwise). The secret is in this response only. ${ROTATION}`,
      tags,
      request: {
        params: Path,
        ...jsonBody(CreateTenantKeyRequest, "The key's name, scopes, expiry"),
      },
      responses: {
        201: ok(CreatedApiKey, "Created; `key` is shown only in this response"),
        ...errorsOf(403, 404, ...bodyErrors),
      },
    }),
    permission: "keys",
    access: { kind: "scoped", operation: (p) => `create API keys of ${who(p)}`, scope },
    handler: (deps) => async (c) => {
      const params = c.req.param() as Record<string, string>;
      const body = c.req.valid("json");
      const client = c.get("apiClient");
      if (client.kind !== "operator") {
        const creator = {
          permissions: client.permissions ?? [],
          expiresAt: client.expiresAt ?? null,
        };
        const broken = exceedsCreator(creator, body);
        if (broken)
          throw new AppError("FORBIDDEN", `Caller is not authorized to create this key: ${broken}`);
      }
      checkKeyExpiry(body.expiresAt, deps.keyMaxDays, new Date());
      const issued = await issueApiKey(deps.db, tenantOf(params), body);
      if (!issued)
        throw new AppError("NOT_FOUND", `Direct customer ${params[param]} is not registered`);
      noteAudit(c, { changes: createdKeyChanges(issued.row) });
      const { row, key } = issued;
      return c.json(
        {
          ...keyRecordOf(row),
          key,
          ...(row.partnerId ? { partnerId: row.partnerId } : {}),
          ...(row.customerId ? { customerId: row.customerId } : {}),
        },
        201,
      );
    },
  });

  const revoke = defineEndpoint({
    route: createRoute({
      method: "delete",
      path: `${base}/{id}`,
      operationId: `revoke${Kind}ApiKey`,
      summary: `Revoke an API key of the ${kind}`,
      description: `Extension of the contract. Any key of the ${kind}, the calling one included; it stops working at once in this process and within about a second in the others. The record stays, marked revoked. ${ROTATION}`,
      tags,
      request: { params: Path.extend({ id: ApiKeyId }) },
      responses: { 200: ok(ApiKeyRecord, "Revoked"), ...errorsOf(400, 403, 404) },
    }),
    permission: "keys",
    access: { kind: "scoped", operation: (p) => `revoke API keys of ${who(p)}`, scope },
    handler: (deps) => async (c) => {
      const params = c.req.param() as Record<string, string>;
      const keyId = params.id ?? "";
      const now = new Date();
      const row = await revokeStoredKey(deps.db, keyId, now, tenantOf(params));
      deps.apiClientCache.evictKey(keyId);
      if (!row) throw new AppError("NOT_FOUND", `API key ${keyId} is not a key of ${who(params)}`);
      if (!row.revokedAt)
        noteAudit(c, {
          changes: { keyId: { old: null, new: keyId }, revoked: { old: false, new: true } },
        });
      return c.json(keyRecordOf({ ...row, revokedAt: row.revokedAt ?? now }), 200);
    },
  });
  return { list, create, revoke };
}

export const partnerApiKeys = tenantKeyRoutes("partner");
export const customerApiKeys = tenantKeyRoutes("customer");
