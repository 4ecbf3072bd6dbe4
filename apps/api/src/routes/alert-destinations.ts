import { createRoute } from "@hono/zod-openapi";
import type { AlertOwner } from "@sightline/db";
import { alertDestinationsState } from "@sightline/db";
import {
  AlertDestinations,
  AlertDestinationsBody,
  CustomerAlertDestinationPath,
  CustomerPath,
  DEFAULT_ALERT_KINDS,
  MAX_ALERT_DESTINATIONS,
  MAX_ALERT_RECIPIENTS,
  PartnerAlertDestinationPath,
  PartnerPath,
  RECENT_ALERT_ATTEMPTS,
  RotatedAlertSecret,
  StoredAlertDestinations,
} from "@sightline/domain";
import { getAlertDestinations, putAlertDestinations, rotateAlertSecret } from "@sightline/services";
import { defineEndpoint } from "../endpoint.ts";
import { bodyErrors, errorsOf, jsonBody, ok, securityHubRoleConflict } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";

const PARTNER_SCOPE =
  "A partner's destinations receive the alerts of every account of all its customers.";
const CUSTOMER_SCOPE = "A direct customer's destinations receive the alerts of its own accounts.";

const GET_DESCRIPTION = `Extension of the contract. The alert destinations, each with its \`destinationId\` and its ${RECENT_ALERT_ATTEMPTS} latest delivery attempts, newest first (\`recentAttempts\`: when, \`delivered\`/\`retrying\`/\`failed\`, the HTTP status or the error). Never a webhook's secret, never a Security Hub external ID.`;

const PUT_DESCRIPTION = `Extension of the contract. Replaces the whole list (\`{"destinations": []}\` removes every destination and its history); PUT of the partner (endpoint 6), of a partner customer (endpoint 8) or of a direct customer's settings never touches it. After each analysis, the changes since the previous one that a destination's \`alertOn\` names (default: ${DEFAULT_ALERT_KINDS.join(", ")}) are sent to it once: a change is never alerted twice to a destination.

At most ${MAX_ALERT_DESTINATIONS} destinations, names unique (without regard to case). Kinds:
- \`webhook\`: \`url\` must be \`https://\` and its host public, by its text and by every address it resolves to: loopback, private, link-local (cloud metadata), CGNAT, multicast and metadata host names are refused (400), and checked again on the address each delivery connects to. The operator may allow named internal hosts (\`SIGHTLINE_ALERT_ALLOWED_HOSTS\`). A new webhook gets a signing secret, returned once in this answer (\`secret\`); it stays while a PUT keeps the destination's name and URL (a new URL is a new destination with a new secret). Each alert is a POST of \`AlertPayload\` with \`sightline-alert-id\`, \`sightline-timestamp\` (Unix seconds) and \`sightline-signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>" under the secret>\`: verify it on the raw body with a constant-time comparison, and refuse timestamps more than 5 minutes from your clock (replays). A 2xx is delivered; 429, 5xx and network errors are retried with exponential back-off; a redirect or another 4xx fails for good; 10 s deadline.
- \`email\`: 1–${MAX_ALERT_RECIPIENTS} \`recipients\`; one digest per analysis through the operator's mail relay (400 when the operator has none).
- \`securityhub\`: one ASFF finding per change, imported into the Security Hub of \`region\` in the account of \`roleArn\`, a role that trusts Sightline's AWS principal with \`sts:ExternalId\` = \`externalId\` and allows \`securityhub:BatchImportFindings\`. A role another tenant configured is refused (409).

A refused body stores nothing.`;

const ROTATE_DESCRIPTION =
  "Extension of the contract. A new signing secret for a webhook destination, returned only here; the old one stops at once (alerts being retried are signed with the new one).";

const ownerOfPartner = (partnerId: string): AlertOwner => ({ kind: "partner", partnerId });
const ownerOfCustomer = (customerId: string): AlertOwner => ({ kind: "direct", customerId });

/** Extension: a partner's alert destinations. */
export const getPartnerAlertDestinations = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/alert-destinations",
    operationId: "getPartnerAlertDestinations",
    summary: "List a partner's alert destinations",
    description: `${GET_DESCRIPTION} ${PARTNER_SCOPE}`,
    tags: ["Alerts"],
    request: { params: PartnerPath },
    responses: {
      200: ok(AlertDestinations, "The destinations and their latest attempts"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read the alert destinations of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    return c.json(await getAlertDestinations(deps.services, ownerOfPartner(partnerId)), 200);
  },
});

export const putPartnerAlertDestinations = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/partner/{partnerId}/alert-destinations",
    operationId: "putPartnerAlertDestinations",
    summary: "Replace a partner's alert destinations",
    description: `${PUT_DESCRIPTION} ${PARTNER_SCOPE}`,
    tags: ["Alerts"],
    request: {
      params: PartnerPath,
      ...jsonBody(AlertDestinationsBody, "Every alert destination of the partner"),
    },
    responses: {
      200: ok(StoredAlertDestinations, "Stored; a new webhook's secret is shown here only"),
      409: securityHubRoleConflict,
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  audit: { state: (db, p) => alertDestinationsState(db, ownerOfPartner(p.partnerId ?? "")) },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure the alert destinations of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    const body = c.req.valid("json");
    return c.json(await putAlertDestinations(deps.services, ownerOfPartner(partnerId), body), 200);
  },
});

export const rotatePartnerAlertSecret = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/partner/{partnerId}/alert-destinations/{destinationId}/rotate-secret",
    operationId: "rotatePartnerAlertSecret",
    summary: "Rotate a partner webhook's signing secret",
    description: ROTATE_DESCRIPTION,
    tags: ["Alerts"],
    request: { params: PartnerAlertDestinationPath },
    responses: {
      200: ok(RotatedAlertSecret, "The new secret, shown here only"),
      ...errorsOf(400, 403, 404),
    },
  }),
  audit: { state: (db, p) => alertDestinationsState(db, ownerOfPartner(p.partnerId ?? "")) },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `rotate an alert secret of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId, destinationId } = c.req.valid("param");
    const rotated = await rotateAlertSecret(
      deps.services,
      ownerOfPartner(partnerId),
      destinationId,
    );
    return c.json(rotated, 200);
  },
});

/** Extension: a direct customer's alert destinations. */
export const getCustomerAlertDestinations = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/alert-destinations",
    operationId: "getCustomerAlertDestinations",
    summary: "List a direct customer's alert destinations",
    description: `${GET_DESCRIPTION} ${CUSTOMER_SCOPE}`,
    tags: ["Alerts"],
    request: { params: CustomerPath },
    responses: {
      200: ok(AlertDestinations, "The destinations and their latest attempts"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read the alert destinations of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId } = c.req.valid("param");
    return c.json(await getAlertDestinations(deps.services, ownerOfCustomer(customerId)), 200);
  },
});

export const putCustomerAlertDestinations = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/customer/{customerId}/alert-destinations",
    operationId: "putCustomerAlertDestinations",
    summary: "Replace a direct customer's alert destinations",
    description: `${PUT_DESCRIPTION} ${CUSTOMER_SCOPE}`,
    tags: ["Alerts"],
    request: {
      params: CustomerPath,
      ...jsonBody(AlertDestinationsBody, "Every alert destination of the customer"),
    },
    responses: {
      200: ok(StoredAlertDestinations, "Stored; a new webhook's secret is shown here only"),
      409: securityHubRoleConflict,
      ...errorsOf(403, 404, ...bodyErrors),
    },
  }),
  audit: { state: (db, p) => alertDestinationsState(db, ownerOfCustomer(p.customerId ?? "")) },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure the alert destinations of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId } = c.req.valid("param");
    const body = c.req.valid("json");
    return c.json(
      await putAlertDestinations(deps.services, ownerOfCustomer(customerId), body),
      200,
    );
  },
});

export const rotateCustomerAlertSecret = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/customer/{customerId}/alert-destinations/{destinationId}/rotate-secret",
    operationId: "rotateCustomerAlertSecret",
    summary: "Rotate a direct customer webhook's signing secret",
    description: ROTATE_DESCRIPTION,
    tags: ["Alerts"],
    request: { params: CustomerAlertDestinationPath },
    responses: {
      200: ok(RotatedAlertSecret, "The new secret, shown here only"),
      ...errorsOf(400, 403, 404),
    },
  }),
  audit: { state: (db, p) => alertDestinationsState(db, ownerOfCustomer(p.customerId ?? "")) },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `rotate an alert secret of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId, destinationId } = c.req.valid("param");
    const rotated = await rotateAlertSecret(
      deps.services,
      ownerOfCustomer(customerId),
      destinationId,
    );
    return c.json(rotated, 200);
  },
});
