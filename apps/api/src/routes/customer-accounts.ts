import { createRoute } from "@hono/zod-openapi";
import {
  customerAccountState,
  deleteCustomerAccount,
  listCustomerAccounts,
  upsertCustomerAccount,
} from "@sightline/db";
import {
  AppError,
  AUDITOR_ROLE_IN_USE,
  CustomerAccountConfig,
  CustomerAccountList,
  CustomerAccountPath,
  CustomerAccountRecord,
  CustomerPath,
  DeletedCustomerAccount,
} from "@sightline/domain";
import { defineEndpoint } from "../endpoint.ts";
import { accountLimitReached } from "../limits.ts";
import { auditorRoleConflict, bodyErrors, errorsOf, jsonBody, ok } from "../openapi.ts";
import { customerScope } from "../scopes.ts";
import { customerNotRegistered } from "./direct-customer.ts";

const accountOf = (p: Record<string, string>) =>
  `account ${p.accountId} of customer ${p.customerId}`;

/** Extension: a direct customer's monitored account, mirroring endpoint 9. */
export const putCustomerAccount = defineEndpoint({
  route: createRoute({
    method: "put",
    path: "/customer/{customerId}/account/{accountId}",
    operationId: "putCustomerAccount",
    summary: "Create or update monitoring for a direct customer's account",
    description:
      "Extension of the contract, with endpoint 9's rules: the account joins the daily analysis; `provider` chooses the shapes of `accountId` and `auditorAuthConfig` (AWS `{ roleArn, externalId }`, a role of the monitored account in the provider's partition; Azure `{ tenantId, clientId }`). Only the `config` method is open to direct customers. A new account beyond the plan's limit answers 429; an AWS role ARN and external ID that another tenant configures, 409.",
    tags: ["Direct customers"],
    request: {
      params: CustomerAccountPath,
      ...jsonBody(CustomerAccountConfig, "The account monitoring configuration"),
    },
    responses: {
      200: ok(CustomerAccountRecord, "Stored; the account joins the daily analysis"),
      ...errorsOf(403, 404, 429, ...bodyErrors),
      409: auditorRoleConflict,
    },
  }),
  audit: {
    state: (db, p) =>
      customerAccountState(db, { customerId: p.customerId ?? "", accountId: p.accountId ?? "" }),
  },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `configure monitoring of ${accountOf(p)}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const result = await upsertCustomerAccount(deps.db, body);
    if (result.kind === "unknown-customer") throw customerNotRegistered(body.customerId);
    if (result.kind === "limit-reached") throw accountLimitReached(body.accountId, result);
    if (result.kind === "role-in-use") throw new AppError("CONFLICT", AUDITOR_ROLE_IN_USE);
    return c.json(result.record, 200);
  },
});

/**
 * Extension mirroring endpoint 10, idempotent. Unlike endpoint 10, an unknown customer is a 404:
 * only the operator can name one (a customer key exists only for a registered customer), so
 * there is nothing to hide from the caller.
 */
export const deleteCustomerAccountRoute = defineEndpoint({
  route: createRoute({
    method: "delete",
    path: "/customer/{customerId}/account/{accountId}",
    operationId: "deleteCustomerAccount",
    summary: "Delete monitoring for a direct customer's account",
    description:
      "Extension of the contract. The account leaves the daily analysis. Idempotent: deleting a configuration that does not exist answers 200 without `provider`. An unregistered customer answers 404.",
    tags: ["Direct customers"],
    request: { params: CustomerAccountPath },
    responses: {
      200: ok(
        DeletedCustomerAccount,
        "Removed, or there was nothing to remove (then `provider` is absent)",
      ),
      ...errorsOf(400, 403, 404),
    },
  }),
  audit: {
    state: (db, p) =>
      customerAccountState(db, { customerId: p.customerId ?? "", accountId: p.accountId ?? "" }),
  },
  permission: "configure",
  access: {
    kind: "scoped",
    operation: (p) => `delete monitoring of ${accountOf(p)}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const params = c.req.valid("param");
    const deleted = await deleteCustomerAccount(deps.db, params);
    if (!deleted) throw customerNotRegistered(params.customerId);
    return c.json(deleted, 200);
  },
});

/** Extension mirroring endpoint 11. */
export const listCustomerAccountsRoute = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/account",
    operationId: "listCustomerAccounts",
    summary: "List a direct customer's monitored accounts",
    description:
      "Extension of the contract. Every monitored account of the direct customer, ordered by account ID.",
    tags: ["Direct customers"],
    request: { params: CustomerPath },
    responses: {
      200: ok(CustomerAccountList, "The monitoring records, by account ID"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the monitored accounts of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId } = c.req.valid("param");
    const accounts = await listCustomerAccounts(deps.db, customerId);
    if (!accounts) throw customerNotRegistered(customerId);
    return c.json(accounts, 200);
  },
});
