import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import { appendAuditEvent, type Database, type Executor } from "@sightline/db";
import { type AuditFieldChange, diffAuditFields } from "@sightline/domain";
import type { Context, MiddlewareHandler } from "hono";
import { inTransaction } from "./ambient-transaction.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import type { Access } from "./guards.ts";

/** How a state-changing route's audit events see what it changes. */
export interface AuditSpec {
  /**
   * The state the route changes, read in its transaction before and after the handler: the
   * event keeps the fields that differ, secrets only as "changed" (`diffAuditFields`).
   */
  state?: (db: Executor, params: Record<string, string>) => Promise<unknown>;
  /** Record only when the state changed: a GET that issues a token the first time it is asked. */
  onlyWhenChanged?: boolean;
}

/** What a handler adds to its request's audit event (`noteAudit`). */
export interface AuditNote {
  /** The tenant whose trail it joins, when the path does not say (the operator's routes). */
  tenant?: string;
  changes?: Record<string, AuditFieldChange>;
}

interface AuditedRoute {
  method: string;
  path: string;
  operationId: string;
  access: Access;
  audit: AuditSpec | undefined;
}

/** A handler's contribution to its request's audit event; merged with what came before. */
export function noteAudit(c: Context<AppEnv>, note: AuditNote): void {
  const before = c.get("auditNote") ?? {};
  c.set("auditNote", {
    ...before,
    ...note,
    changes: { ...before.changes, ...note.changes },
  });
}

/** The tenant whose trail a request on a path joins: its partner or its direct customer. */
export function tenantOfPath(access: Access, params: Record<string, string>): string {
  if (access.kind === "scoped") {
    const scope = access.scope(params);
    return "partnerId" in scope ? scope.partnerId : scope.customerId;
  }
  return params.partnerId ?? params.customerId ?? "operator";
}

/** Marks that a request reached its route's handler: requests refused before it are not audited. */
export function reachesHandler<R extends RouteConfig>(
  handler: RouteHandler<R, AppEnv>,
): RouteHandler<R, AppEnv> {
  return ((c: Context<AppEnv>, next: () => Promise<void>) => {
    c.set("handlerReached", true);
    return (handler as (c: Context<AppEnv>, next: () => Promise<void>) => unknown)(c, next);
  }) as unknown as RouteHandler<R, AppEnv>;
}

const ROLLBACK = Symbol("rollback");

/**
 * Runs a state-changing route's handler in a transaction that also appends its audit event:
 * the change and its record commit together. A request the handler refuses (4xx, 5xx) changes
 * nothing and is recorded, with its status, after the rollback.
 */
export function auditTrail(route: AuditedRoute, deps: AppDeps): MiddlewareHandler<AppEnv> {
  const state = route.audit?.state;
  return async (c, next) => {
    const params = c.req.param() as Record<string, string>;
    let recorded = false;
    try {
      await deps.db.transaction((tx) =>
        inTransaction(tx as unknown as Database, async () => {
          const before = state ? await state(tx, params) : undefined;
          await next();
          if (!c.get("handlerReached") || c.res.status >= 400) throw ROLLBACK;
          const diff = state ? diffAuditFields(before, await state(tx, params)) : {};
          const event = eventOf(c, route, params, diff);
          if (route.audit?.onlyWhenChanged && Object.keys(event.changes).length === 0) return;
          await appendAuditEvent(tx, event);
          recorded = true;
        }),
      );
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
    if (!recorded && c.get("handlerReached") && c.res.status >= 400)
      await appendAuditEvent(deps.db, eventOf(c, route, params, {}));
  };
}

function eventOf(
  c: Context<AppEnv>,
  route: AuditedRoute,
  params: Record<string, string>,
  diff: Record<string, AuditFieldChange>,
) {
  const client = c.get("apiClient");
  const note = c.get("auditNote") ?? {};
  return {
    tenant: note.tenant ?? tenantOfPath(route.access, params),
    keyId: client.kind === "operator" ? null : client.keyId,
    actorName: client.kind === "operator" ? "operator" : (client.keyName ?? `key ${client.keyId}`),
    action: `${route.method.toUpperCase()} ${route.path}`,
    route: route.operationId,
    params,
    status: c.res.status,
    requestId: c.get("requestId") ?? null,
    changes: { ...diff, ...note.changes },
  };
}
