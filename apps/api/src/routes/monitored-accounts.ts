import { createRoute } from "@hono/zod-openapi";
import {
  deleteMonitoredAccount,
  getOemGrant,
  listMonitoredAccounts,
  monitoredAccountState,
  upsertMonitoredAccount,
} from "@sightline/db";
import {
  AccountMonitoringConfig,
  AppError,
  AUDITOR_ROLE_IN_USE,
  cvsNeedsOemIntegration,
  DeletedMonitoredAccount,
  MonitoredAccountList,
  MonitoredAccountPath,
  MonitoredAccountRecord,
  PartnerCustomerPath,
} from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { accountLimitReached } from "../limits.ts";
import { auditorRoleConflict, bodyErrors, errors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { partnerScope } from "../scopes.ts";
import { respondSerialized } from "../serialized-json.ts";

export function partnerCustomerNotConfigured(p: {
  partnerId: string;
  partnerCustomerId: string;
}): AppError {
  return new AppError(
    "NOT_FOUND",
    `Customer ${p.partnerCustomerId} of partner ${p.partnerId} is not configured: PUT /partner/${p.partnerId}/customer/${p.partnerCustomerId} first`,
  );
}

const accountOf = (p: Record<string, string>) =>
  `account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`;

/** Endpoint 9. */
export const putMonitoredAccount = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}",
    operationId: "putMonitoredAccount",
    summary: "Create or update monitoring for an account",
    description:
      "The account joins the daily analysis. `provider` chooses the shapes of `accountId` and `auditorAuthConfig`: for AWS `{ roleArn, externalId }` (a role of the monitored account, in the provider's partition), for Azure `{ tenantId, clientId }`. `auditorAuthMethod: cvs` takes no `auditorAuthConfig` and is open only to partners the operator made OEM integrations (403 otherwise). An AWS role ARN and external ID that another tenant configures answer 409: choose an external ID of your own.",
    tags: ["Monitored accounts"],
    request: {
      params: MonitoredAccountPath,
      ...jsonBody(AccountMonitoringConfig, "The account monitoring configuration"),
    },
    responses: {
      200: ok(MonitoredAccountRecord, "Stored; the account joins the daily analysis"),
      ...errorsOf(403, 404, 429, ...bodyErrors),
      409: auditorRoleConflict,
    },
  }),
  audit: {
    state: (db, p) =>
      monitoredAccountState(db, {
        partnerId: p.partnerId ?? "",
        partnerCustomerId: p.partnerCustomerId ?? "",
        accountId: p.accountId ?? "",
      }),
  },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure monitoring of ${accountOf(p)}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    if (body.auditorAuthMethod === "cvs") {
      // An unknown partner has no customers either: the write below answers 404 for it.
      const grant = await getOemGrant(deps.db, body.partnerId);
      if (grant && !grant.oemIntegrationEnabled)
        throw new AppError("FORBIDDEN", cvsNeedsOemIntegration(body.partnerId));
    }
    const result = await upsertMonitoredAccount(deps.db, body);
    if (result.kind === "unknown-customer") throw partnerCustomerNotConfigured(body);
    if (result.kind === "limit-reached") throw accountLimitReached(body.accountId, result);
    if (result.kind === "role-in-use") throw new AppError("CONFLICT", AUDITOR_ROLE_IN_USE);
    return c.json(result.record, 200);
  },
});

/** Endpoint 10: idempotent under a known partner customer; 403 for one the caller cannot see. */
export const deleteMonitoredAccountRoute = defineEndpoint({
  route: createRoute({
    method: "delete",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}",
    operationId: "deleteMonitoredAccount",
    summary: "Delete monitoring for an account",
    description:
      "The account leaves the daily analysis. Idempotent: deleting a configuration that does not exist answers 200 without `provider`. An unknown partner customer answers 403 (section 7).",
    tags: ["Monitored accounts"],
    request: { params: MonitoredAccountPath },
    responses: {
      200: ok(
        DeletedMonitoredAccount,
        "Removed, or there was nothing to remove (then `provider` is absent)",
      ),
      ...errorsOf(400),
      403: {
        ...errors[403],
        description: "Not authorized, or the partner customer does not exist",
      },
    },
  }),
  audit: {
    state: (db, p) =>
      monitoredAccountState(db, {
        partnerId: p.partnerId ?? "",
        partnerCustomerId: p.partnerCustomerId ?? "",
        accountId: p.accountId ?? "",
      }),
  },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `delete monitoring of ${accountOf(p)}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const params = c.req.valid("param");
    const deleted = await deleteMonitoredAccount(deps.db, params);
    if (!deleted)
      throw new AppError(
        "FORBIDDEN",
        `Caller is not authorized to delete monitoring of ${accountOf(params)}`,
      );
    return c.json(deleted, 200);
  },
});

/** Endpoint 11. */
export const listMonitoredAccountsRoute = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account",
    operationId: "listMonitoredAccounts",
    summary: "List monitored accounts of a partner customer",
    description: "Every monitored account of the partner customer, ordered by account ID.",
    tags: ["Monitored accounts"],
    request: { params: PartnerCustomerPath },
    responses: {
      200: ok(MonitoredAccountList, "The monitoring records, by account ID"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) =>
      `list the monitored accounts of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const params = c.req.valid("param");
    const { partnerId, partnerCustomerId } = params;
    const json = await deps.readCache.read(
      partnerId,
      `accounts:${partnerId}:${partnerCustomerId}`,
      () => listMonitoredAccounts(deps.db, params),
    );
    if (json === undefined) throw partnerCustomerNotConfigured(params);
    return respondSerialized(c, json, 200);
  },
});
