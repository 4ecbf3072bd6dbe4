import { createRoute } from "@hono/zod-openapi";
import { getDirectCustomerView, putDirectCustomerSettings } from "@sightline/db";
import {
  AppError,
  CustomerPath,
  DirectCustomerSettings,
  DirectCustomerView,
} from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { customerScope } from "../scopes.ts";

/** Direct customers are registered by the operator; they configure only what is theirs. */
export function customerNotRegistered(customerId: string): AppError {
  return new AppError(
    "NOT_FOUND",
    `Customer ${customerId} is not registered: the operator registers it with PUT /admin/customers/${customerId}`,
  );
}

/** Extension: a direct customer's delivery settings, mirroring endpoint 6. */
export const putDirectCustomerSettingsRoute = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/customer/{customerId}",
    operationId: "putDirectCustomerSettings",
    summary: "Configure a direct customer's delivery",
    description:
      "Extension of the contract. Replaces the direct customer's delivery settings (absent fields are cleared): its own S3 inbox (`deliveryDestinations.DeliverToS3.bucketName`), the KMS key the reports are encrypted with (`awsEncryptionKeyId`, required with `DeliverToS3`), and `featureFlags`. Without a bucket, reports go to the service's local inbox. The operator registers the customer first (404 otherwise); name and plan are the operator's.",
    tags: ["Direct customers"],
    request: {
      params: CustomerPath,
      ...jsonBody(DirectCustomerSettings, "The delivery settings"),
    },
    responses: {
      200: ok(DirectCustomerView, "Stored; the whole configuration"),
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  audit: { state: (db, p) => getDirectCustomerView(db, p.customerId ?? "") },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const view = await putDirectCustomerSettings(deps.db, body);
    if (!view) throw customerNotRegistered(body.customerId);
    return c.json(view, 200);
  },
});

/** Extension: mirrors endpoint 7. */
export const getDirectCustomerRoute = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}",
    operationId: "getDirectCustomer",
    summary: "Get a direct customer's configuration",
    description:
      "Extension of the contract. The delivery settings last stored with PUT /customer/{customerId}, with the name and plan the operator set.",
    tags: ["Direct customers"],
    request: { params: CustomerPath },
    responses: {
      200: ok(DirectCustomerView, "The direct customer's configuration"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read the configuration of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId } = c.req.valid("param");
    const view = await getDirectCustomerView(deps.db, customerId);
    if (!view) throw customerNotRegistered(customerId);
    return c.json(view, 200);
  },
});
