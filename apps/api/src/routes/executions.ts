import { createRoute } from "@hono/zod-openapi";
import {
  comparisonCounts,
  type Database,
  type ExecutionRow,
  getDirectCustomer,
  getExecution,
  getPartnerCustomer,
  listAppliedEventIdsOf,
  listExecutions,
  toExecutionRecord,
} from "@sightline/db";
import {
  AppError,
  CustomerAccountPath,
  ExecutionList,
  ExecutionPath,
  ExecutionRecord,
  MonitoredAccountPath,
} from "@sightline/domain";
import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";
import { customerScope, executionScope, partnerScope } from "../scopes.ts";
import { customerNotRegistered } from "./direct-customer.ts";
import { partnerCustomerNotConfigured } from "./monitored-accounts.ts";

const DEFAULT_EXECUTIONS = 50;

/**
 * Execution records with the counts of their comparison (changes, findings) where made, and an
 * event step's events.
 */
async function recordsOf(db: Database, rows: readonly ExecutionRow[]): Promise<ExecutionRecord[]> {
  const counts = await comparisonCounts(
    db,
    rows.map((row) => row.executionId),
  );
  const events = await listAppliedEventIdsOf(
    db,
    rows.filter((row) => row.kind === "event").map((row) => row.executionId),
  );
  return rows.map((row) => ({
    ...toExecutionRecord(row, counts.get(row.executionId)),
    ...(row.kind === "event" ? { events: events.get(row.executionId) ?? [] } : {}),
  }));
}

const ExecutionListQuery = z.object({
  limit: z.coerce
    .number<string>()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe(`How many executions, newest first (default ${DEFAULT_EXECUTIONS})`),
});

/** Extension: one execution, for whoever may trigger analyses of its account. */
export const getExecutionRoute = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/executions/{executionId}",
    operationId: "getExecution",
    summary: "Get an execution",
    description:
      "Extension of the contract. The state of an analysis: `queued`, `running`, `succeeded` (with the keys of the delivered reports, the manifest last) or `failed` (with `failure.message` saying what to fix), and the warnings of the run. Readable by the caller that may trigger analyses of the account.",
    tags: ["Analyses"],
    request: { params: ExecutionPath },
    responses: {
      200: ok(ExecutionRecord, "The execution"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read execution ${p.executionId}`,
    scope: executionScope,
  },
  handler: (deps) => async (c) => {
    const { executionId } = c.req.valid("param");
    const row = await getExecution(deps.db, executionId);
    if (!row) throw new AppError("NOT_FOUND", `Execution ${executionId} does not exist`);
    return c.json((await recordsOf(deps.db, [row]))[0] as ExecutionRecord, 200);
  },
});

const listDescription = `Extension of the contract. The account's latest executions, newest first: ${DEFAULT_EXECUTIONS} unless \`limit\` (1 to 200) says otherwise.`;

/** Extension: a partner account's latest executions. */
export const listPartnerExecutions = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/executions",
    operationId: "listPartnerExecutions",
    summary: "List the executions of a partner account",
    description: listDescription,
    tags: ["Analyses"],
    request: { params: MonitoredAccountPath, query: ExecutionListQuery },
    responses: {
      200: ok(ExecutionList, "The executions, newest first"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) =>
      `list the executions of account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const params = c.req.valid("param");
    const { limit = DEFAULT_EXECUTIONS } = c.req.valid("query");
    const owner = await getPartnerCustomer(deps.db, params);
    if (!owner) throw partnerCustomerNotConfigured(params);
    const key = { customerId: owner.customerId, accountId: params.accountId };
    const rows = await listExecutions(deps.db, key, limit);
    return c.json(await recordsOf(deps.db, rows), 200);
  },
});

/** Extension: a direct customer's account's latest executions. */
export const listCustomerExecutions = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/account/{accountId}/executions",
    operationId: "listCustomerExecutions",
    summary: "List the executions of a direct customer's account",
    description: listDescription,
    tags: ["Analyses"],
    request: { params: CustomerAccountPath, query: ExecutionListQuery },
    responses: {
      200: ok(ExecutionList, "The executions, newest first"),
      ...errorsOf(400, 403, 404),
    },
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `list the executions of account ${p.accountId} of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const params = c.req.valid("param");
    const { limit = DEFAULT_EXECUTIONS } = c.req.valid("query");
    if (!(await getDirectCustomer(deps.db, params.customerId)))
      throw customerNotRegistered(params.customerId);
    const rows = await listExecutions(deps.db, params, limit);
    return c.json(await recordsOf(deps.db, rows), 200);
  },
});
