import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  ALERT_ID_HEADER,
  ALERT_SIGNATURE_HEADER,
  ALERT_TIMESTAMP_HEADER,
  AlertPayload,
  ErrorBody,
} from "@sightline/domain";
import { z } from "zod";
import type { AppEnv } from "./context.ts";
import { MAX_BODY_BYTES } from "./guards.ts";

export const API_VERSION = "0.1.0";

const ErrorSchema = ErrorBody.meta({
  id: "Error",
  description:
    "Every error: `message` (the contract's member) says what went wrong; `issues` name each invalid field and its rule",
});

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A JSON success response. */
export const ok = json;

/** A JSON answer to a request that started something: `Location` says where to follow it. */
export const accepted = <T extends z.ZodType>(schema: T, description: string) => ({
  ...json(schema, description),
  headers: {
    location: {
      description: "Where to follow the execution: `/executions/{executionId}`",
      schema: { type: "string" as const },
    },
  },
});

/** A JSON request body, validated by the route's schema. */
export const jsonBody = <T extends z.ZodType>(schema: T, description: string) => ({
  body: { description, required: true, content: { "application/json": { schema } } },
});

const requestId = {
  "x-request-id": {
    description: "The request's ID (the caller's `x-request-id` if well-formed); also in the logs",
    schema: { type: "string" as const },
  },
};

const error = (description: string) => ({ ...json(ErrorSchema, description), headers: requestId });

/** Error responses, by status, for the routes' `responses`. */
export const errors = {
  400: error("Invalid path parameter or body; `issues` names each field and rule"),
  401: error("Missing or unknown API key (`WWW-Authenticate: Bearer`)"),
  403: error("The caller is not authorized for the operation; the message names it"),
  404: error("Not found; the message says what to configure first"),
  405: {
    ...error("The path exists, but not with this method"),
    headers: {
      ...requestId,
      allow: { description: "The methods the path accepts", schema: { type: "string" as const } },
    },
  },
  409: {
    ...error(
      "The account is already being analysed (the message and `x-execution-id` name the execution)",
    ),
    headers: {
      ...requestId,
      "x-execution-id": {
        description: "The queued or running execution of the account, when there is one",
        schema: { type: "string" as const },
      },
    },
  },
  413: error(`Body larger than ${MAX_BODY_BYTES} bytes (1 MiB)`),
  422: error("Well-formed, but not something Sightline can do"),
  415: error("Content-Type is not application/json"),
  429: {
    ...error(
      "Too many requests (the API key's or the client's rate), or a limit of the customer's plan is reached; the message says which",
    ),
    headers: {
      ...requestId,
      "retry-after": {
        description:
          "Seconds until a request may go again (daily analyses: the next UTC day); absent for the account limit",
        schema: { type: "integer" as const },
      },
      "ratelimit-limit": {
        description: "The rate limit's burst (requests)",
        schema: { type: "integer" as const },
      },
      "ratelimit-remaining": {
        description: "Requests left in the burst",
        schema: { type: "integer" as const },
      },
      "ratelimit-reset": {
        description: "Seconds until the burst is full again",
        schema: { type: "integer" as const },
      },
    },
  },
  503: {
    ...error("The database is unavailable or too busy to answer in time; retry"),
    headers: {
      ...requestId,
      "retry-after": {
        description: "Seconds to wait before retrying",
        schema: { type: "integer" as const },
      },
    },
  },
};

/** 409 of the routes that configure an account's auditor (no execution involved there). */
export const auditorRoleConflict = error(
  "Another Sightline tenant configures this role ARN and external ID: choose a new external ID",
);

/** 409 of the alert destinations: a Security Hub role another tenant configured. */
export const securityHubRoleConflict = error(
  "Another Sightline tenant configures this Security Hub role: name a role of your own",
);

type ErrorStatus = keyof typeof errors;
/** The error responses of a route: always 401, 405, 429 and 503, plus the statuses given. */
export const errorsOf = <S extends ErrorStatus>(...statuses: S[]) =>
  Object.fromEntries(
    [...new Set<ErrorStatus>([401, 405, 429, 503, ...statuses])].map((status) => [
      status,
      errors[status],
    ]),
  ) as Pick<typeof errors, S | 401 | 405 | 429 | 503>;

/** The error responses of a route with a JSON body. */
export const bodyErrors = [400, 413, 415] as const;

const TAGS = [
  { name: "Access capabilities", description: "The map of permissions to six access capabilities" },
  { name: "Policies", description: "Generated deny-IAM-admin policy documents" },
  { name: "Partners", description: "A partner's own configuration and its customers" },
  { name: "Monitored accounts", description: "Cloud accounts a partner customer monitors" },
  {
    name: "Direct customers",
    description: "A direct customer's delivery settings and monitored accounts (extension)",
  },
  { name: "Analyses", description: "On-demand analysis triggers and the executions they start" },
  {
    name: "Alerts",
    description:
      "Where partners and direct customers hear of access changes after each analysis (extension)",
  },
  {
    name: "Administration",
    description: "Operator-only: API keys, direct customers and OEM integrations",
  },
  { name: "Operations", description: "Probes for load balancers and orchestrators" },
];

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
/** What Sightline POSTs to a webhook alert destination (OpenAPI 3.1 `webhooks`). */
function registerAlertWebhook(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerWebhook({
    method: "post",
    path: "access-change-alert",
    operationId: "accessChangeAlert",
    summary: "Access changes found by an analysis",
    description:
      "Sent to each webhook alert destination whose `alertOn` matches changes of an analysis. Verify `sightline-signature` before trusting the body: compute HMAC-SHA256 under the destination's secret (its text) of `<sightline-timestamp>.<raw body>`, compare its hex with each `v1=` value in constant time, and refuse a timestamp more than 5 minutes from your clock (a replay). `alertId` is stable: a retried alert has the same ID, so receivers can drop duplicates. Answer 2xx once stored; 429 or 5xx make Sightline retry with back-off; redirects are not followed.",
    tags: ["Alerts"],
    security: [],
    request: {
      headers: z.object({
        [ALERT_ID_HEADER]: z.string().describe("The alert's ID (as in the body)"),
        [ALERT_TIMESTAMP_HEADER]: z.string().describe("When the request was signed, Unix seconds"),
        [ALERT_SIGNATURE_HEADER]: z
          .string()
          .describe('`v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>" under the secret>`'),
      }),
      body: {
        description: "The alert",
        required: true,
        content: { "application/json": { schema: AlertPayload } },
      },
    },
    responses: {
      200: { description: "Received (any 2xx)" },
      400: { description: "Refused for good (any 4xx but 429): Sightline does not retry" },
      503: { description: "Not now (any 5xx, or 429): Sightline retries with back-off" },
    },
  });
}

export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>, publicUrl: string) {
  registerAlertWebhook(app);
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key issued by the operator: `Authorization: Bearer <key>`",
  });
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Sightline",
      version: API_VERSION,
      description:
        "Who can do what in your cloud accounts. Every endpoint except the probes and these documents requires `Authorization: Bearer <API key>`. Bodies are JSON of at most 1 MiB. Errors are `{ message, code, requestId, issues? }`.",
      license: { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" },
    },
    servers: [{ url: publicUrl, description: "This Sightline service" }],
    security: [{ apiKey: [] }],
    tags: TAGS,
  });
}
