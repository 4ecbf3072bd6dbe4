import { createRoute } from "@hono/zod-openapi";
import { getOemGrant, type OemGrant, setOemGrant } from "@sightline/db";
import {
  AppError,
  OemIntegrationGrant,
  OemIntegrationRecord,
  PartnerPath,
} from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";

const PATH = "/admin/partners/{partnerId}/oem-integration";

function recordOf(grant: OemGrant | undefined, partnerId: string): OemIntegrationRecord {
  if (!grant)
    throw new AppError(
      "NOT_FOUND",
      `Partner ${partnerId} is not configured: it (or the operator) must PUT /partner/${partnerId} first`,
    );
  return {
    partnerId: grant.partnerId,
    oemIntegrationEnabled: grant.oemIntegrationEnabled,
    ...(grant.grantedAt ? { grantedAt: grant.grantedAt.toISOString() } : {}),
  };
}

/** The operator makes a partner an OEM integration (or ends it): only this opens `cvs`. */
export const putOemIntegration = defineEndpoint({
  route: createRoute({
    method: "put",
    path: PATH,
    operationId: "putOemIntegration",
    summary: "Make a partner an OEM integration, or end it (operator only)",
    description:
      "Only an OEM integration's accounts may use `auditorAuthMethod: cvs` (credential vending), and only the operator makes a partner one: a partner's own `configs.oemIntegrationEnabled` is no authority. `grantedAt` is the time of the first grant (a second grant keeps it). Ending it also removes `oemIntegrationEnabled` from the partner's `configs`; its `cvs` accounts stay configured, but their analyses are refused (403) until the operator grants it again. The partner must be configured (404 otherwise).",
    tags: ["Administration"],
    request: {
      params: PartnerPath,
      ...jsonBody(OemIntegrationGrant, "Whether the partner is an OEM integration"),
    },
    responses: {
      200: ok(OemIntegrationRecord, "Stored"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  audit: { state: (db, p) => getOemGrant(db, p.partnerId ?? "") },
  access: { kind: "operator", operation: "make partners OEM integrations" },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    const { oemIntegrationEnabled } = c.req.valid("json");
    const grant = await setOemGrant(deps.db, partnerId, oemIntegrationEnabled);
    return c.json(recordOf(grant, partnerId), 200);
  },
});

export const getOemIntegration = defineEndpoint({
  route: createRoute({
    method: "get",
    path: PATH,
    operationId: "getOemIntegration",
    summary: "Whether a partner is an OEM integration (operator only)",
    description: "The operator's grant, and since when (`grantedAt`).",
    tags: ["Administration"],
    request: { params: PartnerPath },
    responses: {
      200: ok(OemIntegrationRecord, "The grant"),
      ...errorsOf(400, 403, 404),
    },
  }),
  access: { kind: "operator", operation: "read partners' OEM integration" },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    return c.json(recordOf(await getOemGrant(deps.db, partnerId), partnerId), 200);
  },
});
