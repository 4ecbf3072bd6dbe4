import { createRoute } from "@hono/zod-openapi";
import { getPartner, upsertPartner } from "@sightline/db";
import {
  AppError,
  oemIntegrationRule,
  PartnerConfig,
  PartnerPath,
  PartnerRef,
} from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { partnerScope } from "../scopes.ts";
import { respondSerialized } from "../serialized-json.ts";

/** Endpoint 6. */
export const putPartner = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/partner/{partnerId}",
    operationId: "putPartner",
    summary: "Create or update partner configuration",
    description:
      "Replaces the partner's configuration (absent fields are cleared). `partnerId` in the body must equal the path's. `awsEncryptionKeyId` is required with `DeliverToS3`. `configs.oemIntegrationEnabled: true` is accepted only from a partner the operator made an OEM integration (`PUT /admin/partners/{partnerId}/oem-integration`): 403 otherwise, and nothing is stored.",
    tags: ["Partners"],
    request: { params: PartnerPath, ...jsonBody(PartnerConfig, "The partner configuration") },
    responses: { 200: ok(PartnerRef, "Stored"), ...errorsOf(403, ...bodyErrors) },
  }),
  audit: { state: (db, p) => getPartner(db, p.partnerId ?? "") },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const result = await upsertPartner(deps.db, body);
    if (result.kind === "oem-not-granted")
      throw new AppError(
        "FORBIDDEN",
        `configs.oemIntegrationEnabled: ${oemIntegrationRule(body.partnerId)}`,
      );
    return c.json(result.partner, 200);
  },
});

/** Endpoint 7. */
export const getPartnerRoute = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}",
    operationId: "getPartner",
    summary: "Get partner configuration",
    description: "The configuration last stored with PUT /partner/{partnerId}.",
    tags: ["Partners"],
    request: { params: PartnerPath },
    responses: {
      200: ok(PartnerConfig, "The partner configuration"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read the configuration of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    const json = await deps.readCache.read(partnerId, `partner:${partnerId}`, () =>
      getPartner(deps.db, partnerId),
    );
    if (json === undefined)
      throw new AppError("NOT_FOUND", `Partner ${partnerId} is not configured`);
    return respondSerialized(c, json, 200);
  },
});
