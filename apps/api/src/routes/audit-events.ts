import { createRoute } from "@hono/zod-openapi";
import { type AuditEventRow, type Executor, listAuditEvents } from "@sightline/db";
import {
  type AuditEvent,
  AuditEventPage,
  AuditEventQuery,
  CustomerPath,
  PartnerPath,
} from "@sightline/domain";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";

const DESCRIPTION =
  "Extension of the contract. The tenant's audit trail, newest first: each state-changing request (who, the route and its identifiers, the status, the fields it changed: values in clear, secrets only as `changed`) and each refused one. `since`, `keyId` (or `operator`) and `cursor` (the previous page's `nextCursor`) narrow it; `format=jsonl` answers one event per line (`application/x-ndjson`) for an export. Each event carries `hash` and `previousHash` of the tenant's chain (`sightline audit verify`).";

export function auditEventOf(row: AuditEventRow): AuditEvent {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    tenant: row.tenant,
    actor: { keyId: row.keyId, name: row.actorName },
    action: row.action,
    route: row.route,
    params: row.params,
    status: row.status,
    requestId: row.requestId,
    changes: row.changes as AuditEvent["changes"],
    hash: row.hash,
    previousHash: row.previousHash,
  };
}

/** One page of events; a JSON page, or JSON Lines with the next cursor in `x-next-cursor`. */
async function answerPage(
  c: Context<AppEnv>,
  db: Executor,
  tenant: string | undefined,
  query: AuditEventQuery,
) {
  const rows = await listAuditEvents(db, {
    ...(tenant !== undefined ? { tenant } : {}),
    ...(query.since ? { since: new Date(query.since) } : {}),
    ...(query.keyId ? { keyId: query.keyId } : {}),
    ...(query.cursor ? { before: Number(query.cursor) } : {}),
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  const nextCursor = rows.length > query.limit ? String(page.at(-1)?.id) : null;
  const events = page.map(auditEventOf);
  if (query.format === "jsonl") {
    if (nextCursor) c.header("x-next-cursor", nextCursor);
    const text = events.map((e) => `${JSON.stringify(e)}\n`).join("");
    return c.body(text, 200, { "content-type": "application/x-ndjson; charset=utf-8" });
  }
  return c.json({ events, nextCursor }, 200);
}

const responses = {
  200: {
    description: "A page of events (or JSON Lines with `format=jsonl`)",
    content: {
      "application/json": { schema: AuditEventPage },
      "application/x-ndjson": { schema: z.string() },
    },
  },
  ...errorsOf(400, 403),
};

export const listPartnerAuditEvents = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/partner/{partnerId}/audit-events",
    operationId: "listPartnerAuditEvents",
    summary: "The partner's audit trail",
    description: DESCRIPTION,
    tags: ["Audit"],
    request: { params: PartnerPath, query: AuditEventQuery },
    responses,
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read the audit trail of partner ${p.partnerId}`,
    scope: partnerScope,
  },
  handler: (deps) => async (c) => {
    const { partnerId } = c.req.valid("param");
    return answerPage(c, deps.db, partnerId, c.req.valid("query")) as never;
  },
});

export const listCustomerAuditEvents = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/customer/{customerId}/audit-events",
    operationId: "listCustomerAuditEvents",
    summary: "The direct customer's audit trail",
    description: DESCRIPTION,
    tags: ["Audit"],
    request: { params: CustomerPath, query: AuditEventQuery },
    responses,
  }),
  permission: "read",
  access: {
    kind: "scoped",
    operation: (p) => `read the audit trail of customer ${p.customerId}`,
    scope: customerScope,
  },
  handler: (deps) => async (c) => {
    const { customerId } = c.req.valid("param");
    return answerPage(c, deps.db, customerId, c.req.valid("query")) as never;
  },
});

const AdminAuditQuery = AuditEventQuery.extend({
  tenant: z
    .string()
    .regex(/^(P\d{6}|C\d{5,6}|operator)$/, "must be a partner ID, a customer ID or operator")
    .optional(),
});

export const listAllAuditEvents = defineEndpoint({
  route: createRoute({
    method: "get",
    path: "/admin/audit-events",
    operationId: "listAllAuditEvents",
    summary: "Every tenant's audit trail (operator only)",
    description: `${DESCRIPTION} Every tenant's, or one's with \`tenant\`.`,
    tags: ["Administration"],
    request: { query: AdminAuditQuery },
    responses,
  }),
  access: { kind: "operator", operation: "read every audit trail" },
  handler: (deps) => async (c) => {
    const { tenant, ...query } = c.req.valid("query");
    return answerPage(c, deps.db, tenant, query) as never;
  },
});
