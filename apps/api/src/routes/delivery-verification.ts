import { createRoute } from "@hono/zod-openapi";
import { deliveryProofState } from "@sightline/db";
import { CustomerPath, DeliveryVerification, PartnerPath } from "@sightline/domain";
import { getDeliveryVerification } from "@sightline/services";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";

const DESCRIPTION =
  "Extension of the contract. Before Sightline delivers to an S3 bucket, its owner proves it controls the bucket: put `token` as the whole content of the object `key` in the bucket (`aws s3 cp token.txt s3://<bucketName>/<key>`; Sightline needs `s3:GetObject` on it, see deploy/README.md). Sightline reads it back before the first delivery and whenever the bucket or its expected owner changes; until then every analysis fails `INBOX_UNPROVEN` and nothing is written. The token is issued on the first request for the configured bucket and stays until the destination changes.";

/** Extension: the ownership proof of a partner's `DeliverToS3` bucket. */
export const partnerDeliveryVerification = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/delivery-verification",
    operationId: "getPartnerDeliveryVerification",
    summary: "Prove control of the partner's inbox bucket",
    description: DESCRIPTION,
    tags: ["Partners"],
    request: { params: PartnerPath },
    responses: {
      200: ok(DeliveryVerification, "The token, where to put it, and whether it was read back"),
      ...errorsOf(400, 403, 404),
    },
  }),
  audit: { state: (db, p) => deliveryProofState(db, p.partnerId ?? ""), onlyWhenChanged: true },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `verify the delivery destination of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    return c.json(await getDeliveryVerification(deps.db, { kind: "partner", partnerId }), 200);
  },
});

/** Extension: the ownership proof of a direct customer's `DeliverToS3` bucket. */
export const customerDeliveryVerification = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/delivery-verification",
    operationId: "getCustomerDeliveryVerification",
    summary: "Prove control of a direct customer's inbox bucket",
    description: DESCRIPTION,
    tags: ["Direct customers"],
    request: { params: CustomerPath },
    responses: {
      200: ok(DeliveryVerification, "The token, where to put it, and whether it was read back"),
      ...errorsOf(400, 403, 404),
    },
  }),
  audit: { state: (db, p) => deliveryProofState(db, p.customerId ?? ""), onlyWhenChanged: true },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `verify the delivery destination of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId } = c.req.valid("param");
    return c.json(await getDeliveryVerification(deps.db, { kind: "direct", customerId }), 200);
  },
});
