import { describe, expect, it } from "vitest";
import { ApiClientCache } from "../src/api-client-cache.ts";

describe("ApiClientCache", () => {
  const partner = { kind: "partner" as const, partnerId: "P123456", keyId: "key_a" };

  it("forgets entries after the TTL", () => {
    let now = 1_000;
    const cache = new ApiClientCache(100, 10, () => now);
    cache.set("h1", partner);
    expect(cache.get("h1")).toEqual(partner);
    now += 100;
    expect(cache.get("h1")).toBeUndefined();
  });

  it("evicts a revoked key at once and bounds its size", () => {
    const cache = new ApiClientCache(1_000, 2);
    cache.set("h1", partner);
    cache.set("h2", { ...partner, keyId: "key_b" });
    cache.evictKey("key_a");
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h3", { ...partner, keyId: "key_c" });
    cache.set("h4", { ...partner, keyId: "key_d" });
    expect(cache.get("h2")).toBeUndefined();
    expect(cache.get("h4")).toMatchObject({ keyId: "key_d" });
  });

  it("does not store a look-up that raced a revocation or a reconnection", () => {
    const cache = new ApiClientCache(1_000, 10);
    const before = cache.generation;
    cache.evictKey("key_a"); // the revocation is heard while the key's look-up is on its way
    cache.set("h1", partner, before);
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h1", partner, cache.generation);
    expect(cache.get("h1")).toEqual(partner);
    const looking = cache.generation;
    cache.clear();
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h1", partner, looking);
    expect(cache.get("h1")).toBeUndefined();
  });
});
