import type { PERMISSIONS } from "@sightline/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../src/routes/index.ts";
import { createHarness } from "./harness.ts";
import { ownerOf, scopeFixture, tenantRows, validBody } from "./scope-fixtures.ts";

const h = await createHarness();
let f: Awaited<ReturnType<typeof scopeFixture>>;
beforeAll(async () => {
  f = await scopeFixture(h);
});

const tenantRoutes = endpoints.filter(
  (r) => r.access.kind === "scoped" || r.access.kind === "authenticated",
);

async function callWith(route: (typeof endpoints)[number], scope: (typeof PERMISSIONS)[number]) {
  const keys = ownerOf(route, f.values) === "customer" ? f.customerKeys : f.partnerKeys;
  // A key may only make keys within its own scopes.
  const body = /^create\w+ApiKey$/.test(route.operationId)
    ? { name: "made by a test", scopes: [scope] }
    : validBody(route.operationId, f.values);
  return h.call(route.method.toUpperCase(), f.fill(route.path), {
    key: keys[scope],
    body: route.takesBody ? body : undefined,
  });
}

describe("every tenant route declares its scope", () => {
  it.each(tenantRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
    "%s",
    (_name, route) => {
      expect(route.permission, "declare `permission` beside `access`").toBeDefined();
    },
  );

  it("operator and public routes declare none: they take no tenant key", () => {
    for (const route of endpoints.filter((r) => !tenantRoutes.includes(r)))
      expect(route.permission, `${route.method} ${route.path}`).toBeUndefined();
  });
});

it("with a read key: every read answers, every other route is 403 naming its scope, and nothing changes", async () => {
  const before = await tenantRows(h.deps.db, f.values.partnerId, f.values.customerId);
  for (const route of tenantRoutes) {
    const res = await callWith(route, "read");
    const name = `${route.method.toUpperCase()} ${route.path} → ${res.status} ${res.text.slice(0, 200)}`;
    if (route.permission === "read" || route.permission === "any-key") {
      expect(res.status, name).not.toBe(403);
      expect(res.status, name).not.toBe(401);
      expect(res.status, name).toBeLessThan(500);
    } else {
      expect(res.status, name).toBe(403);
      expect(res.json.message, name).toContain(`lacks the '${route.permission}' scope`);
    }
  }
  expect(await tenantRows(h.deps.db, f.values.partnerId, f.values.customerId)).toEqual(before);
});

describe.each(["trigger", "configure", "keys"] as const)("with a %s key", (scope) => {
  it("is allowed exactly the routes that declare it (and any-key ones), 403 naming the scope elsewhere", async () => {
    for (const route of tenantRoutes) {
      const res = await callWith(route, scope);
      const name = `${route.method.toUpperCase()} ${route.path} → ${res.status} ${res.text.slice(0, 200)}`;
      if (route.permission === scope || route.permission === "any-key") {
        expect(res.status, name).not.toBe(403);
        expect(res.status, name).toBeLessThan(500);
      } else {
        expect(res.status, name).toBe(403);
        expect(res.json.message, name).toContain(`lacks the '${route.permission}' scope`);
      }
    }
  });
});

describe("routes registered outside the table", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-03-26",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  };
  const mcp = (key: string) =>
    h.call("POST", "/mcp", {
      key,
      body: initialize,
      headers: { accept: "application/json, text/event-stream" },
    });

  it("POST /mcp needs read", async () => {
    expect((await mcp(f.partnerKeys.read)).status).toBe(200);
    for (const scope of ["trigger", "configure", "keys"] as const) {
      const res = await mcp(f.partnerKeys[scope]);
      expect(res.status).toBe(403);
      expect(res.json.message).toContain("lacks the 'read' scope");
    }
  });

  it("/openapi.json, /docs and /console are public documents: no key needed", async () => {
    for (const path of ["/openapi.json", "/docs"])
      expect((await h.call("GET", path)).status, path).toBe(200);
    // 503 until the console is built; never 401 or 403.
    expect([200, 503]).toContain((await h.call("GET", "/console/")).status);
  });

  it("the OpenAPI document states each tenant route's scope", async () => {
    const doc = (await h.call("GET", "/openapi.json")).json as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    for (const route of tenantRoutes) {
      const operation = doc.paths[route.path]?.[route.method];
      expect(operation?.["x-sightline-scope"], route.path).toBe(route.permission);
      expect(String(operation?.description)).toMatch(/Needs (the `\w+` scope|any valid API key)\./);
    }
  });
});

it("whoami answers the key's id, name, scopes and expiry", async () => {
  const res = await h.call("GET", "/whoami", { key: f.partnerKeys.read });
  expect(res.json).toMatchObject({
    kind: "partner",
    partnerId: f.values.partnerId,
    id: expect.stringMatching(/^key_/),
    name: "read",
    scopes: ["read"],
    expiresAt: null,
  });
  expect(res.text).not.toContain(f.partnerKeys.read);
});

it("a route that declares no scope refuses every tenant key, whatever its scopes", async () => {
  const { createRoute } = await import("@hono/zod-openapi");
  const { createApp } = await import("../src/app.ts");
  const { defineEndpoint } = await import("../src/endpoint.ts");
  const { partnerScope } = await import("../src/scopes.ts");
  const undeclared = defineEndpoint({
    route: createRoute({
      method: "get",
      path: "/partner/{partnerId}/undeclared",
      operationId: "undeclared",
      responses: { 200: { description: "never" } },
    }),
    access: { kind: "scoped", operation: (p) => `read ${p.partnerId}`, scope: partnerScope },
    handler: () => async (c) => c.body(null, 200),
  });
  expect(undeclared.permission).toBeUndefined();
  const app = createApp(h.deps, [undeclared]);
  const all = await h.admin("POST", "/admin/api-keys", { partnerId: f.values.partnerId });
  const res = await app.request(`/partner/${f.values.partnerId}/undeclared`, {
    headers: { authorization: `Bearer ${all.json.key as string}` },
  });
  expect(res.status).toBe(403);
  expect(((await res.json()) as { message: string }).message).toContain("declares no scope");
});
