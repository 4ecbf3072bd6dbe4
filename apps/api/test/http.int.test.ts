import { describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

const h = await createHarness();

describe("HTTP behaviour", () => {
  it("answers 415 for a body that is not JSON, 400 for malformed JSON, 413 past 1 MiB", async () => {
    const { partnerId, key } = await h.newPartner();
    const path = `/partner/${partnerId}`;
    const form = await h.call("PUT", path, {
      key,
      body: "partnerId=x",
      headers: { "content-type": "text/plain" },
    });
    expect(form.status).toBe(415);
    expect(form.json.message).toContain("application/json");
    const noType = await h.app.request(path, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}` },
      body: "{}",
    });
    expect(noType.status).toBe(415);
    const malformed = await h.call("PUT", path, { key, body: '{"partnerId":' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toMatch(/malformed json/i);
    const big = JSON.stringify({ partnerId, pad: "x".repeat(1024 * 1024) });
    const large = await h.call("PUT", path, { key, body: big });
    expect(large.status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await h.app.request(path, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("answers 404 for unknown routes and 405 with Allow for wrong methods", async () => {
    const missing = await h.admin("GET", "/partners");
    expect(missing.status).toBe(404);
    expect(typeof missing.json.message).toBe("string");
    const wrong = await h.admin("POST", "/partner/P123456");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("PUT, GET");
    const patch = await h.admin("PATCH", "/partner/P123456/customer/tenant-1/account/123456789012");
    expect(patch.status).toBe(405);
  });

  it("echoes a well-formed x-request-id and generates one otherwise", async () => {
    const given = await h.call("GET", "/healthz", { headers: { "x-request-id": "trace-123" } });
    expect(given.headers.get("x-request-id")).toBe("trace-123");
    const generated = await h.call("GET", "/healthz", {
      headers: { "x-request-id": "bad id with spaces" },
    });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const error = await h.call("GET", "/partner/P123456");
    expect(error.json.requestId).toBe(error.headers.get("x-request-id"));
  });

  it("sends security headers: nosniff always, no-store when authenticated, a CSP on /docs", async () => {
    const { partnerId, key } = await h.newPartner();
    const health = await h.call("GET", "/healthz");
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    expect(health.headers.get("cache-control")).toBeNull();
    for (const response of [
      await h.call("GET", `/partner/${partnerId}`, { key }),
      await h.call("PUT", `/partner/${partnerId}`, { key, body: { partnerId, configs: { x: 1 } } }),
    ]) {
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
    for (const path of ["/docs", "/docs/assets/init.js"]) {
      const docs = await h.call("GET", path);
      expect(docs.status, path).toBe(200);
      expect(docs.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(docs.headers.get("content-security-policy"), path).toContain("script-src 'self'");
      expect(docs.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });

  it("reports liveness and readiness without a key", async () => {
    expect(await h.call("GET", "/healthz")).toMatchObject({ status: 200, json: { status: "ok" } });
    expect(await h.call("GET", "/readyz")).toMatchObject({ status: 200, json: { status: "ok" } });
  });

  it("serves an OpenAPI 3.1 document of every route, and the docs page", async () => {
    const doc = await h.call("GET", "/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toBe("3.1.0");
    const paths = doc.json.paths as Record<string, Record<string, { requestBody?: unknown }>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        "/partner/{partnerId}",
        "/partner/{partnerId}/customer/{partnerCustomerId}",
        "/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}",
        "/partner/{partnerId}/customer/{partnerCustomerId}/account",
      ]),
    );
    const put = paths["/partner/{partnerId}/customer/{partnerCustomerId}/account/{accountId}"]?.put;
    expect(JSON.stringify(put?.requestBody)).toContain("AwsAccountMonitoringConfig");
    const schemas = (doc.json.components as { schemas: Record<string, unknown> }).schemas;
    expect(JSON.stringify(schemas.AwsAccountMonitoringConfig)).toContain("auditorAuthMethod");
    const page = await h.app.request("/docs");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("swagger-ui-bundle.js");
    const asset = await h.app.request("/docs/assets/swagger-ui-bundle.js");
    expect(asset.status).toBe(200);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it.each(["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "missing.js"])(
    "answers 404 for /docs/assets/%s, a file it does not ship",
    async (name) => {
      const asset = await h.call("GET", `/docs/assets/${name}`);
      expect(asset.status).toBe(404);
    },
  );
});
