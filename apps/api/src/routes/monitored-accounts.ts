import {
  deleteMonitoredAccount,
  getPartner,
  listMonitoredAccounts,
  upsertMonitoredAccount,
} from "@sightline/db";
import {
  AccountMonitoringConfig,
  DeletedMonitoredAccount,
  MonitoredAccountList,
  MonitoredAccountPath,
  MonitoredAccountRecord,
  PartnerCustomerPath,
} from "@sightline/domain";
import { AppError, invalidInput } from "../errors.ts";
import { defineRoute } from "../route.ts";
import { bodyErrors, forbidden, notFound, unauthorized, validationFailed } from "./responses.ts";

const partnerScope = (p: Record<string, string>) => ({ partnerId: p.partnerId ?? "" });
function partnerCustomerNotConfigured(p: {
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
export const putMonitoredAccount = defineRoute({
  method: "put",
  path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}",
  operationId: "putMonitoredAccount",
  summary: "Create or update monitoring for an account",
  tags: ["Monitored accounts"],
  access: {
    kind: "scoped",
    operation: (p) => `configure monitoring of ${accountOf(p)}`,
    scope: partnerScope,
  },
  params: MonitoredAccountPath,
  body: AccountMonitoringConfig,
  bodyMatchesPath: ["partnerId", "partnerCustomerId", "accountId"],
  responses: {
    200: {
      description: "Stored; the account joins the daily analysis",
      schema: MonitoredAccountRecord,
    },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    404: { ...notFound[404], description: "The partner customer is not configured" },
    ...bodyErrors,
  },
  handler: async ({ body, deps }) => {
    if (body.auditorAuthMethod === "cvs") {
      const partner = await getPartner(deps.db, body.partnerId);
      if (!partner?.configs?.oemIntegrationEnabled) {
        throw invalidInput("request body", [
          {
            path: "auditorAuthMethod",
            message: `'cvs' is available only to OEM partners (configs.oemIntegrationEnabled of partner ${body.partnerId})`,
          },
        ]);
      }
    }
    const record = await upsertMonitoredAccount(deps.db, body);
    if (!record) throw partnerCustomerNotConfigured(body);
    return { status: 200, body: record };
  },
});

/** Endpoint 10: idempotent under a known partner customer; 403 for one the caller cannot see. */
export const deleteMonitoredAccountRoute = defineRoute({
  method: "delete",
  path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}",
  operationId: "deleteMonitoredAccount",
  summary: "Delete monitoring for an account",
  tags: ["Monitored accounts"],
  access: {
    kind: "scoped",
    operation: (p) => `delete monitoring of ${accountOf(p)}`,
    scope: partnerScope,
  },
  params: MonitoredAccountPath,
  responses: {
    200: {
      description: "Removed, or there was nothing to remove (then `provider` is absent)",
      schema: DeletedMonitoredAccount,
    },
    ...validationFailed,
    ...unauthorized,
    403: {
      ...forbidden[403],
      description: "Not authorized, or the partner customer does not exist",
    },
  },
  handler: async ({ params, deps }) => {
    const deleted = await deleteMonitoredAccount(deps.db, params);
    if (!deleted)
      throw new AppError(
        "FORBIDDEN",
        `Caller is not authorized to delete monitoring of ${accountOf(params)}`,
      );
    return { status: 200, body: deleted };
  },
});

/** Endpoint 11. */
export const listMonitoredAccountsRoute = defineRoute({
  method: "get",
  path: "/partner/{partnerId}/customer/{partnerCustomerId}/account",
  operationId: "listMonitoredAccounts",
  summary: "List monitored accounts of a partner customer",
  tags: ["Monitored accounts"],
  access: {
    kind: "scoped",
    operation: (p) =>
      `list the monitored accounts of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  params: PartnerCustomerPath,
  responses: {
    200: { description: "The monitoring records, by account ID", schema: MonitoredAccountList },
    ...validationFailed,
    ...unauthorized,
    ...forbidden,
    404: { ...notFound[404], description: "The partner customer is not configured" },
  },
  handler: async ({ params, deps }) => {
    const { partnerId, partnerCustomerId } = params;
    const json = await deps.readCache.read(
      partnerId,
      `accounts:${partnerId}:${partnerCustomerId}`,
      () => listMonitoredAccounts(deps.db, params),
    );
    if (json === undefined) throw partnerCustomerNotConfigured(params);
    return { status: 200, json };
  },
});
