import { randomBytes } from "node:crypto";
import { createDb } from "@sightline/db";
import { describe, expect, inject, it } from "vitest";
import { ApiClientCache } from "../src/api-client-cache.ts";
import { createApp } from "../src/app.ts";
import type { AppDeps } from "../src/context.ts";
import { TokenBuckets } from "../src/rate-limits.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();

function appWith(deps: AppDeps) {
  const app = createApp(deps);
  return async (path: string, key: string) => {
    const response = await app.request(path, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, headers: response.headers };
  };
}

describe("token buckets", () => {
  it("allows a burst, then refills at the rate", () => {
    let now = 0;
    const buckets = new TokenBuckets(2, 3, 10, () => now);
    expect([1, 2, 3, 4].map(() => buckets.take("k").allowed)).toEqual([true, true, true, false]);
    expect(buckets.take("k")).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    now = 500; // half a second: one token back
    expect(buckets.take("k").allowed).toBe(true);
    expect(buckets.take("k").allowed).toBe(false);
    expect(buckets.take("other").allowed).toBe(true);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After and RateLimit-* past a key's burst; other keys go on", async () => {
    const call = appWith({ ...h.deps, rateLimits: { perKey: new TokenBuckets(0.5, 3) } });
    const a = await h.newPartner();
    const b = await h.newPartner();
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call(`/partner/${a.partnerId}`, a.key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call(`/partner/${a.partnerId}`, a.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    const other = await call(`/partner/${b.partnerId}`, b.key);
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("limits a client before any key is looked up, whatever keys it tries", async () => {
    const call = appWith({ ...h.deps, rateLimits: { perClient: new TokenBuckets(0.1, 5) } });
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await call("/partner/P123456", `sl_${randomBytes(32).toString("base64url")}`)).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Health probes are not counted.
    expect((await call("/healthz", "x")).status).toBe(200);
  });
});

describe("behind a proxy (TRUST_PROXY)", () => {
  it("counts each client by the address the proxy saw, the last of X-Forwarded-For", async () => {
    const app = createApp({
      ...h.deps,
      trustProxy: true,
      rateLimits: { perClient: new TokenBuckets(0.1, 2) },
    });
    const from = async (forwarded: string) =>
      (await app.request("/openapi.json", { headers: { "x-forwarded-for": forwarded } })).status;
    expect([await from("10.0.0.1"), await from("10.0.0.1"), await from("10.0.0.1")]).toEqual([
      200, 200, 429,
    ]);
    // A client cannot pick its bucket: only the last entry counts.
    expect(await from("10.9.9.9, 10.0.0.1")).toBe(429);
    expect(await from("10.0.0.1, 10.0.0.2")).toBe(200);
  });
});

describe("unknown keys", () => {
  it("are refused unread when they are not of the issued form, and not looked up twice", async () => {
    const closed = createDb(inject("databaseUrl"));
    await closed.close();
    const deps: AppDeps = { ...h.deps, apiClientCache: new ApiClientCache() };
    const call = appWith(deps);
    const wellFormed = `sl_${randomBytes(32).toString("base64url")}`;
    expect((await call("/partner/P123456", wellFormed)).status).toBe(401);
    // From now on a look-up would fail (503): the answers below come without one.
    deps.db = closed.db;
    expect((await call("/partner/P123456", "not-a-sightline-key")).status).toBe(401);
    expect((await call("/partner/P123456", wellFormed)).status).toBe(401);
    // A new well-formed key is looked up, and meets the closed pool.
    expect(
      (await call("/partner/P123456", `sl_${randomBytes(32).toString("base64url")}`)).status,
    ).toBe(503);
  });
});
