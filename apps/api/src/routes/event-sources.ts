import { createRoute } from "@hono/zod-openapi";
import { type Executor, getEventSource, getPartnerCustomer } from "@sightline/db";
import {
  CustomerAccountPath,
  EventSourceStatus,
  MonitoredAccountPath,
  RotatedEventSource,
} from "@sightline/domain";
import {
  type AccountOwner,
  readEventSource,
  removeEventSource,
  rotateEventToken,
  type ServiceContext,
} from "@sightline/services";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";
import { customerScope, partnerScope } from "../scopes.ts";

const servicesFor = (deps: AppDeps, c: Context<AppEnv>): ServiceContext => ({
  ...deps.services,
  logger: c.get("logger"),
});

const partnerOwner = (p: Record<string, string>): AccountOwner => ({
  kind: "partner",
  partnerId: p.partnerId ?? "",
  partnerCustomerId: p.partnerCustomerId ?? "",
});

const customerOwner = (p: Record<string, string>): AccountOwner => ({
  kind: "direct",
  customerId: p.customerId ?? "",
});

const PARTNER_PATH = "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}";
const CUSTOMER_PATH = "/customer/{customerId}/account/{accountId}";

const ROTATE_RULES =
  "The account must be a monitored AWS account with Sightline's auditor (`config`, or `cvs` for OEM partners); an Azure subscription answers 400. The token is shown only in this answer and stored only hashed; a rotation replaces the previous token at once. Give it to the account's EventBridge connection (API-key auth, header `x-sightline-event-token`), with a rule of `ruleEventPattern` targeting `endpoint` — `deploy/aws/event-forwarding.yaml` and `deploy/terraform/event-forwarding/` do this. IAM's events reach EventBridge only in us-east-1.";

const READ_RULES =
  "Where the account's events go and what arrived (received, applied by an event step or a full analysis, refused, unknown), never the token; 404 before the first rotate.";

/** What the audit trail compares: whether events are on, and the token only as "changed". */
async function eventSourceState(db: Executor, customerId: string | undefined, accountId: string) {
  if (!customerId) return { events: "off" };
  const row = await getEventSource(db, { customerId, accountId });
  return row ? { events: "on", token: row.tokenHash.toString("hex") } : { events: "off" };
}

/** The three event-source routes of one path form (partner customer's or direct customer's). */
function eventSourceRoutes(form: {
  path: string;
  params: typeof MonitoredAccountPath | typeof CustomerAccountPath;
  names: { rotate: string; get: string; delete: string };
  owner: (p: Record<string, string>) => AccountOwner;
  /** The execution-style customer ID the path names, if configured. */
  customerIdOf: (db: Executor, p: Record<string, string>) => Promise<string | undefined>;
  scope: typeof partnerScope | typeof customerScope;
  whose: (p: Record<string, string>) => string;
}) {
  const audit = {
    state: async (db: Executor, p: Record<string, string>) =>
      eventSourceState(db, await form.customerIdOf(db, p), p.accountId ?? ""),
  };
  const access = (verb: string) => ({
    kind: "scoped" as const,
    operation: (p: Record<string, string>) => `${verb} the event source of ${form.whose(p)}`,
    scope: form.scope,
  });
  const rotate = defineEndpoint({
    route: createRoute({
      method: "post",
      path: `${form.path}/event-source/rotate`,
      operationId: form.names.rotate,
      summary: "Create or rotate the account's event token",
      description: ROTATE_RULES,
      tags: ["Events"],
      request: { params: form.params },
      responses: {
        201: ok(RotatedEventSource, "The new token (shown once) and where events go"),
        ...errorsOf(400, 403, 404),
      },
    }),
    permission: "trigger",
    access: access("rotate"),
    audit,
    handler: (deps) => async (c) => {
      const p = c.req.param() as Record<string, string>;
      const rotated = await rotateEventToken(
        servicesFor(deps, c),
        form.owner(p),
        p.accountId ?? "",
        deps.publicUrl,
      );
      c.get("logger").info({ accountId: p.accountId }, "event token rotated");
      return c.json(rotated, 201);
    },
  });
  const read = defineEndpoint({
    route: createRoute({
      method: "get",
      path: `${form.path}/event-source`,
      operationId: form.names.get,
      summary: "Read the account's event source",
      description: READ_RULES,
      tags: ["Events"],
      request: { params: form.params },
      responses: {
        200: ok(EventSourceStatus, "The event source, without its token"),
        ...errorsOf(403, 404),
      },
    }),
    permission: "read",
    access: access("read"),
    handler: (deps) => async (c) => {
      const p = c.req.param() as Record<string, string>;
      const status = await readEventSource(
        servicesFor(deps, c),
        form.owner(p),
        p.accountId ?? "",
        deps.publicUrl,
      );
      return c.json(status, 200);
    },
  });
  const remove = defineEndpoint({
    route: createRoute({
      method: "delete",
      path: `${form.path}/event-source`,
      operationId: form.names.delete,
      summary: "Switch the account's events off",
      description:
        "Deletes the account's event source: its token stops working at once and its pending events are dropped. The daily analysis goes on.",
      tags: ["Events"],
      request: { params: form.params },
      responses: { 204: { description: "Switched off" }, ...errorsOf(403, 404) },
    }),
    permission: "trigger",
    access: access("delete"),
    audit,
    handler: (deps) => async (c) => {
      const p = c.req.param() as Record<string, string>;
      await removeEventSource(servicesFor(deps, c), form.owner(p), p.accountId ?? "");
      return c.body(null, 204);
    },
  });
  return { rotate, read, remove };
}

export const partnerEventSource = eventSourceRoutes({
  path: PARTNER_PATH,
  params: MonitoredAccountPath,
  names: {
    rotate: "rotatePartnerEventSource",
    get: "getPartnerEventSource",
    delete: "deletePartnerEventSource",
  },
  owner: partnerOwner,
  customerIdOf: async (db, p) =>
    (
      await getPartnerCustomer(db, {
        partnerId: p.partnerId ?? "",
        partnerCustomerId: p.partnerCustomerId ?? "",
      })
    )?.customerId,
  scope: partnerScope,
  whose: (p) => `account ${p.accountId} of partner ${p.partnerId} customer ${p.partnerCustomerId}`,
});

export const customerEventSource = eventSourceRoutes({
  path: CUSTOMER_PATH,
  params: CustomerAccountPath,
  names: {
    rotate: "rotateCustomerEventSource",
    get: "getCustomerEventSource",
    delete: "deleteCustomerEventSource",
  },
  owner: customerOwner,
  customerIdOf: async (_db, p) => p.customerId,
  scope: customerScope,
  whose: (p) => `account ${p.accountId} of customer ${p.customerId}`,
});
