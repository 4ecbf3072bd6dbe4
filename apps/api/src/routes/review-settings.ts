import { createRoute } from "@hono/zod-openapi";
import {
  type Database,
  getDirectCustomer,
  getPartnerCustomer,
  getReviewSettings,
  putReviewSettings,
} from "@sightline/db";
import { CustomerPath, PartnerCustomerPath, ReviewSettings } from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";
import { customerNotRegistered } from "./direct-customer.ts";
import { partnerCustomerNotConfigured } from "./monitored-accounts.ts";

const DESCRIPTION =
  "Extension of the contract. What the customer calls confidential (the values of a resource's `Confidentiality` tag that make new access to it a change of its own, `confidential-access-gained`) and the thresholds of its findings. A PUT replaces them, an absent field taking its default; they apply from the next analysis.";

async function partnerCustomerId(
  db: Database,
  params: { partnerId: string; partnerCustomerId: string },
): Promise<string> {
  const owner = await getPartnerCustomer(db, params);
  if (!owner) throw partnerCustomerNotConfigured(params);
  return owner.customerId;
}

async function directCustomerId(db: Database, customerId: string): Promise<string> {
  if (!(await getDirectCustomer(db, customerId))) throw customerNotRegistered(customerId);
  return customerId;
}

const partnerOperation = (verb: string) => (p: Record<string, string>) =>
  `${verb} the review settings of partner ${p.partnerId} customer ${p.partnerCustomerId}`;
const customerOperation = (verb: string) => (p: Record<string, string>) =>
  `${verb} the review settings of customer ${p.customerId}`;
const PARTNER_PATH = "/partner/{partnerId}/customer/{partnerCustomerId}/review-settings";
const CUSTOMER_PATH = "/customer/{customerId}/review-settings";
const TAGS = ["Changes and findings"];

export const getPartnerReviewSettings = defineEndpoint({
  route: createRoute({
    method: "get",
    path: PARTNER_PATH,
    operationId: "getPartnerCustomerReviewSettings",
    summary: "Get a partner customer's review settings",
    description: DESCRIPTION,
    tags: TAGS,
    request: { params: PartnerCustomerPath },
    responses: { 200: ok(ReviewSettings, "The settings in force"), ...errorsOf(400, 403, 404) },
  }),
  permission: "read",
  access: { kind: "scoped", operation: partnerOperation("read"), scope: partnerScope },
  handler: (deps) => async (c) => {
    const customerId = await partnerCustomerId(deps.db, c.req.valid("param"));
    return c.json(await getReviewSettings(deps.db, customerId), 200);
  },
});

export const putPartnerReviewSettings = defineEndpoint({
  route: createRoute({
    method: "put",
    path: PARTNER_PATH,
    operationId: "putPartnerCustomerReviewSettings",
    summary: "Set a partner customer's review settings",
    description: DESCRIPTION,
    tags: TAGS,
    request: { params: PartnerCustomerPath, ...jsonBody(ReviewSettings, "The settings") },
    responses: {
      200: ok(ReviewSettings, "Stored; the settings in force"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  permission: "configure",
  access: { kind: "scoped", operation: partnerOperation("set"), scope: partnerScope },
  handler: (deps) => async (c) => {
    const customerId = await partnerCustomerId(deps.db, c.req.valid("param"));
    return c.json(await putReviewSettings(deps.db, customerId, c.req.valid("json")), 200);
  },
});

export const getCustomerReviewSettings = defineEndpoint({
  route: createRoute({
    method: "get",
    path: CUSTOMER_PATH,
    operationId: "getCustomerReviewSettings",
    summary: "Get a direct customer's review settings",
    description: DESCRIPTION,
    tags: TAGS,
    request: { params: CustomerPath },
    responses: { 200: ok(ReviewSettings, "The settings in force"), ...errorsOf(400, 403, 404) },
  }),
  permission: "read",
  access: { kind: "scoped", operation: customerOperation("read"), scope: customerScope },
  handler: (deps) => async (c) => {
    const customerId = await directCustomerId(deps.db, c.req.valid("param").customerId);
    return c.json(await getReviewSettings(deps.db, customerId), 200);
  },
});

export const putCustomerReviewSettings = defineEndpoint({
  route: createRoute({
    method: "put",
    path: CUSTOMER_PATH,
    operationId: "putCustomerReviewSettings",
    summary: "Set a direct customer's review settings",
    description: DESCRIPTION,
    tags: TAGS,
    request: { params: CustomerPath, ...jsonBody(ReviewSettings, "The settings") },
    responses: {
      200: ok(ReviewSettings, "Stored; the settings in force"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  permission: "configure",
  access: { kind: "scoped", operation: customerOperation("set"), scope: customerScope },
  handler: (deps) => async (c) => {
    const customerId = await directCustomerId(deps.db, c.req.valid("param").customerId);
    return c.json(await putReviewSettings(deps.db, customerId, c.req.valid("json")), 200);
  },
});
