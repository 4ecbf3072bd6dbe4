import { upsertPartnerCustomer } from "@sightline/db";
import { PartnerCustomerConfig, PartnerCustomerPath, PartnerCustomerRef } from "@sightline/domain";
import { AppError } from "../errors.ts";
import { defineRoute } from "../route.ts";
import { bodyErrors, forbidden, notFound, unauthorized, validationFailed } from "./responses.ts";

/** Endpoint 8. */
export const putPartnerCustomer = defineRoute({
  method: "put",
  path: "/partner/{partnerId}/customer/{partnerCustomerId}",
  operationId: "putPartnerCustomer",
  summary: "Create or update partner customer configuration",
  tags: ["Partners"],
  access: {
    kind: "scoped",
    operation: (p) => `configure customer ${p.partnerCustomerId} of partner ${p.partnerId}`,
    scope: (p) => ({ partnerId: p.partnerId ?? "" }),
  },
  params: PartnerCustomerPath,
  body: PartnerCustomerConfig,
  bodyMatchesPath: ["partnerId", "partnerCustomerId"],
  responses: {
    200: {
      description: "Stored; `customerId` is assigned on first creation",
      schema: PartnerCustomerRef,
    },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    404: { ...notFound[404], description: "The partner is not configured" },
    ...bodyErrors,
  },
  handler: async ({ body, deps }) => {
    const ref = await upsertPartnerCustomer(deps.db, body);
    if (!ref) {
      throw new AppError(
        "NOT_FOUND",
        `Partner ${body.partnerId} is not configured: PUT /partner/${body.partnerId} first`,
      );
    }
    return { status: 200, body: ref };
  },
});
