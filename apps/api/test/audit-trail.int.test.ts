import { randomUUID } from "node:crypto";
import { rawQuery } from "@sightline/db";
import { PERMISSIONS } from "@sightline/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../src/routes/index.ts";
import { ADMIN_KEY, createHarness } from "./harness.ts";
import { ownerOf, scopeFixture, validBody } from "./scope-fixtures.ts";

const h = await createHarness();
let f: Awaited<ReturnType<typeof scopeFixture>>;
let allScopes: { partner: string; customer: string };
beforeAll(async () => {
  f = await scopeFixture(h);
  const all = async (owner: object) =>
    (await h.admin("POST", "/admin/api-keys", { ...owner, name: "all", scopes: PERMISSIONS })).json
      .key as string;
  allScopes = {
    partner: await all({ partnerId: f.values.partnerId }),
    customer: await all({ customerId: f.values.customerId }),
  };
});

async function eventsOf(requestId: string) {
  return [
    ...(await h.deps.db.execute(
      rawQuery("select * from audit_events where request_id = $1", [requestId]),
    )),
  ] as Record<string, unknown>[];
}

async function callAudited(route: (typeof endpoints)[number]) {
  const requestId = `audit-${randomUUID()}`;
  const key =
    route.access.kind === "operator" || route.access.kind === "public"
      ? ADMIN_KEY
      : allScopes[ownerOf(route, f.values)];
  const res = await h.call(route.method.toUpperCase(), f.fill(route.path), {
    key,
    body: route.takesBody ? validBody(route.operationId, f.values) : undefined,
    headers: { "x-request-id": requestId },
  });
  return { res, events: await eventsOf(requestId) };
}

const named = (routes: typeof endpoints) =>
  routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const);

describe("a state-changing route writes exactly one audit event", () => {
  // Delivery verification is audited only when it issues a token (no bucket here: it does not).
  const changing = endpoints.filter((r) => r.changesState && r.method !== "get");
  it("has state-changing routes", () => expect(changing.length).toBeGreaterThan(20));
  it.each(named(changing))("%s", async (_name, route) => {
    const { res, events } = await callAudited(route);
    expect(res.status, res.text).toBeLessThan(500);
    expect(events, res.text).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      action: `${route.method.toUpperCase()} ${route.path}`,
      route: route.operationId,
      status: res.status,
    });
    if (route.access.kind === "operator")
      expect(event).toMatchObject({ key_id: null, actor_name: "operator" });
    else expect(event).toMatchObject({ key_id: expect.stringMatching(/^key_/), actor_name: "all" });
  });
});

describe("a read route writes none", () => {
  const reads = endpoints.filter((r) => !r.changesState);
  it.each(named(reads))("%s", async (_name, route) => {
    const { res, events } = await callAudited(route);
    expect(res.status, res.text).toBeLessThan(500);
    expect(events).toHaveLength(0);
  });
});

describe("requests refused before the handler write none", () => {
  it("400 for an invalid body, 415 for another media type", async () => {
    const route = `/partner/${f.values.partnerId}`;
    for (const [body, headers] of [
      [{ partnerId: "nope" }, {}],
      ["partnerId=x", { "content-type": "text/plain" }],
    ] as const) {
      const requestId = `audit-${randomUUID()}`;
      const res = await h.call("PUT", route, {
        key: allScopes.partner,
        body,
        headers: { ...headers, "x-request-id": requestId },
      });
      expect([400, 415]).toContain(res.status);
      expect(await eventsOf(requestId)).toHaveLength(0);
    }
  });
});

it("a 403 for a missing scope is recorded in the path's tenant, and a 401 nowhere", async () => {
  const requestId = `audit-${randomUUID()}`;
  const res = await h.call("PUT", `/partner/${f.values.partnerId}`, {
    key: f.partnerKeys.read,
    body: { partnerId: f.values.partnerId },
    headers: { "x-request-id": requestId },
  });
  expect(res.status).toBe(403);
  expect(await eventsOf(requestId)).toEqual([
    expect.objectContaining({
      tenant: f.values.partnerId,
      status: 403,
      actor_name: "read",
      changes: { refused: { old: null, new: "the API key lacks the 'configure' scope" } },
    }),
  ]);
  const anonymous = `audit-${randomUUID()}`;
  const unknown = await h.call("PUT", `/partner/${f.values.partnerId}`, {
    key: "sl_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    body: { partnerId: f.values.partnerId },
    headers: { "x-request-id": anonymous },
  });
  expect(unknown.status).toBe(401);
  expect(await eventsOf(anonymous)).toHaveLength(0);
});
