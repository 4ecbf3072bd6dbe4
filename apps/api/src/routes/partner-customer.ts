import { createRoute } from "@hono/zod-openapi";
import { getPartnerCustomer, listPartnerCustomers, upsertPartnerCustomer } from "@sightline/db";
import {
  AppError,
  PartnerCustomerConfig,
  PartnerCustomerList,
  PartnerCustomerPath,
  PartnerCustomerRef,
  PartnerPath,
} from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { partnerScope } from "../scopes.ts";

/** Endpoint 8. */
export const putPartnerCustomer = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}",
    operationId: "putPartnerCustomer",
    summary: "Create or update partner customer configuration",
    description:
      "Replaces the customer's configuration. On first creation the service assigns `customerId` (`<partnerId>-<12 digits>`), which never changes. The partner must be configured first.",
    tags: ["Partners"],
    request: {
      params: PartnerCustomerPath,
      ...jsonBody(PartnerCustomerConfig, "The partner customer configuration"),
    },
    responses: {
      200: ok(PartnerCustomerRef, "Stored; `customerId` is assigned on first creation"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  audit: {
    state: (db, p) =>
      getPartnerCustomer(db, {
        partnerId: p.partnerId ?? "",
        partnerCustomerId: p.partnerCustomerId ?? "",
      }),
  },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure customer ${p.partnerCustomerId} of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const ref = await upsertPartnerCustomer(deps.db, body);
    if (!ref) {
      throw new AppError(
        "NOT_FOUND",
        `Partner ${body.partnerId} is not configured: PUT /partner/${body.partnerId} first`,
      );
    }
    return c.json(ref, 200);
  },
});

/** Extension of the contract: the partner's customers, so that a client can find its accounts. */
export const listPartnerCustomersRoute = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/customer",
    operationId: "listPartnerCustomers",
    summary: "List a partner's customers",
    description:
      "Extension of the contract. The partner's customers in `partnerCustomerId` order, each with the `customerId` Sightline assigned; an unconfigured partner has none.",
    tags: ["Partners"],
    request: { params: PartnerPath },
    responses: { 200: ok(PartnerCustomerList, "The partner's customers"), ...errorsOf(400, 403) },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the customers of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    return c.json({ customers: await listPartnerCustomers(deps.db, partnerId) }, 200);
  },
});
