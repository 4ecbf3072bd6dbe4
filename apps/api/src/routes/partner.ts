import { getPartner, upsertPartner } from "@sightline/db";
import { PartnerConfig, PartnerPath, PartnerRef } from "@sightline/domain";
import { AppError } from "../errors.ts";
import { defineRoute } from "../route.ts";
import { bodyErrors, forbidden, notFound, unauthorized, validationFailed } from "./responses.ts";

const partnerScope = {
  scope: (p: Record<string, string>) => ({ partnerId: p.partnerId ?? "" }),
};

/** Endpoint 6. */
export const putPartner = defineRoute({
  method: "put",
  path: "/partner/{partnerId}",
  operationId: "putPartner",
  summary: "Create or update partner configuration",
  tags: ["Partners"],
  access: {
    kind: "scoped",
    operation: (p) => `configure partner ${p.partnerId}`,
    ...partnerScope,
  },
  params: PartnerPath,
  body: PartnerConfig,
  bodyMatchesPath: ["partnerId"],
  responses: {
    200: { description: "Stored", schema: PartnerRef },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    ...bodyErrors,
  },
  handler: async ({ body, deps }) => ({ status: 200, body: await upsertPartner(deps.db, body) }),
});

/** Endpoint 7. */
export const getPartnerRoute = defineRoute({
  method: "get",
  path: "/partner/{partnerId}",
  operationId: "getPartner",
  summary: "Get partner configuration",
  tags: ["Partners"],
  access: {
    kind: "scoped",
    operation: (p) => `read the configuration of partner ${p.partnerId}`,
    ...partnerScope,
  },
  params: PartnerPath,
  responses: {
    200: { description: "The partner configuration", schema: PartnerConfig },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    ...notFound,
  },
  handler: async ({ params, deps }) => {
    const { partnerId } = params;
    const json = await deps.readCache.read(partnerId, `partner:${partnerId}`, () =>
      getPartner(deps.db, partnerId),
    );
    if (json === undefined)
      throw new AppError("NOT_FOUND", `Partner ${partnerId} is not configured`);
    return { status: 200, json };
  },
});
