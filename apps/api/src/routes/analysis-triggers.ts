import { createRoute } from "@hono/zod-openapi";
import {
  AnalysisTrigger,
  CustomerAccountPath,
  MonitoredAccountPath,
  PartnerAnalysisTrigger,
  TriggeredAnalysis,
  TriggeredPartnerAnalysis,
} from "@sightline/domain";
import { type ServiceContext, type TriggeredExecution, triggerAnalysis } from "@sightline/services";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { defineEndpoint } from "../endpoint.ts";
import { accepted, bodyErrors, errorsOf, jsonBody } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";

/*
 * Path parameters: the contract writes endpoints 13 and 14 with `{customer_id}`, `{partner_id}`,
 * `{partner_customer_id}` and `{account_id}`, and says (section 4) that these are the same
 * parameters as `{partnerId}`, `{partnerCustomerId}` and `{accountId}`. A parameter's name is not
 * part of the URL, so we keep the camelCase names of every other route: the URLs are the
 * contract's exactly, the document names each parameter one way, and the body members that
 * repeat the path (`customerId`, `accountId`…) are checked against the path by name.
 */

const servicesFor = (deps: AppDeps, c: Context<AppEnv>): ServiceContext => ({
  ...deps.services,
  logger: c.get("logger"),
});

/** 202: where to follow the execution, and a log line that ties the request to it. */
function accept(c: Context<AppEnv>, triggered: TriggeredExecution) {
  c.header("location", `/executions/${triggered.executionId}`);
  c.get("logger").info(triggered, "analysis queued");
}

const TRIGGER_RULES =
  "AWS accounts and Azure subscriptions (`provider` azure or azure-government) are analysed alike; an Azure subscription's reports are delivered under `customers/<customerId>/reports/azure/<subscriptionId>/`. At most one execution per account is queued or running: another trigger meanwhile answers 409 naming it (message and `x-execution-id`). The plan limits on-demand analyses per account per UTC day (429 with `Retry-After`). Follow the execution at `Location` (`GET /executions/{executionId}`); the reports are delivered to the secure inbox.";

/** Endpoint 13. */
export const triggerCustomerAnalysis = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/customer/{customerId}/account/{accountId}/analysis",
    operationId: "triggerAnalysis",
    summary: "Trigger analysis",
    description: `Starts an analysis of a direct customer's monitored account (contract path \`/customer/{customer_id}/account/{account_id}/analysis\`). The body repeats the path's identifiers. ${TRIGGER_RULES}`,
    tags: ["Analyses"],
    request: {
      params: CustomerAccountPath,
      ...jsonBody(AnalysisTrigger, "The identifiers of the path, repeated"),
    },
    responses: {
      202: accepted(TriggeredAnalysis, "Queued; `executionId` names the analysis"),
      ...errorsOf(403, 404, 409, 429, ...bodyErrors),
    },
  }),
  permission: "trigger",
  access: {
    kind: "scoped",
    operation: (p) => `trigger an analysis of account ${p.accountId} of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId, accountId } = c.req.valid("json");
    const triggered = await triggerAnalysis(servicesFor(deps, c), {
      owner: { kind: "direct", customerId },
      accountId,
      kind: "ondemand",
    });
    accept(c, triggered);
    const { executionId } = triggered;
    return c.json({ customerId, accountId, executionId }, 202);
  },
});

/** Endpoint 14. */
export const triggerPartnerAnalysis = defineEndpoint({
  route: createRoute({
    method: "post",
    path: "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}/analysis",
    operationId: "triggerPartnerAnalysis",
    summary: "Trigger analysis for a partner account",
    description: `Starts an analysis of a partner customer's account (contract path \`/partner/{partner_id}/customer/{partner_customer_id}/account/{account_id}/analysis\`). Without \`auditorAuthMethod\` the account's configured \`config\` or \`cvs\` auditor is used, so the account must be monitored. With \`auditorAuthMethod: credential\` and \`auditorAuthCredential\`, the caller's own STS session is used (it must be an assumed-role session of the account, in the provider's partition, valid for at least 5 more minutes); only the partner customer must be configured; own credentials are AWS-only (section 2.5): for an Azure subscription they answer 400. The credential is stored only encrypted, for this execution, and deleted once the account is collected. ${TRIGGER_RULES}`,
    tags: ["Analyses"],
    request: {
      params: MonitoredAccountPath,
      ...jsonBody(PartnerAnalysisTrigger, "The identifiers of the path, and an own credential"),
    },
    responses: {
      202: accepted(TriggeredPartnerAnalysis, "Queued; `customerId` is the mapped customer ID"),
      ...errorsOf(403, 404, 409, 429, ...bodyErrors),
    },
  }),
  permission: "trigger",
  access: {
    kind: "scoped",
    operation: (p) =>
      `trigger an analysis of account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const body = c.req.valid("json");
    const { partnerId, partnerCustomerId, accountId } = body;
    const triggered = await triggerAnalysis(servicesFor(deps, c), {
      owner: { kind: "partner", partnerId, partnerCustomerId },
      accountId,
      kind: "ondemand",
      ...(body.auditorAuthCredential ? { credential: body.auditorAuthCredential } : {}),
    });
    accept(c, triggered);
    const { customerId, executionId } = triggered;
    return c.json({ partnerId, partnerCustomerId, customerId, accountId, executionId }, 202);
  },
});
