import { describe, expect, it } from "vitest";
import { ReadCache } from "../src/read-cache.ts";

describe("ReadCache", () => {
  it("serves the cached answer until the partner is invalidated", async () => {
    const cache = new ReadCache();
    cache.resume();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.read("P1", "k", load)).toBe('{"n":1}');
    expect(await cache.read("P1", "k", load)).toBe('{"n":1}');
    cache.invalidate("P2");
    expect(await cache.read("P1", "k", load)).toBe('{"n":1}');
    cache.invalidate("P1");
    expect(await cache.read("P1", "k", load)).toBe('{"n":2}');
  });

  it("does not store an answer loaded across an invalidation", async () => {
    const cache = new ReadCache();
    cache.resume();
    let release: () => void = () => {};
    const slow = cache.read<string>(
      "P1",
      "k",
      () => new Promise((resolve) => (release = () => resolve("old"))),
    );
    cache.invalidate("P1");
    release();
    expect(await slow).toBe('"old"');
    expect(await cache.read("P1", "k", async () => "new")).toBe('"new"');
  });

  it("caches nothing while suspended, nor an answer that straddles a reconnect", async () => {
    const cache = new ReadCache();
    let n = 0;
    const load = async () => ++n;
    await cache.read("P1", "k", load);
    await cache.read("P1", "k", load);
    expect(n).toBe(2);
    cache.resume();
    let release: () => void = () => {};
    const slow = cache.read<number>(
      "P1",
      "k",
      () => new Promise((resolve) => (release = () => resolve(0))),
    );
    cache.suspend();
    cache.resume();
    release();
    await slow;
    expect(await cache.read("P1", "k", load)).toBe("3");
  });

  it("expires entries after the TTL and never caches a miss", async () => {
    let now = 0;
    const cache = new ReadCache(100, 10, () => now);
    cache.resume();
    let n = 0;
    expect(await cache.read("P1", "missing", async () => undefined)).toBeUndefined();
    await cache.read("P1", "k", async () => ++n);
    now = 100;
    await cache.read("P1", "k", async () => ++n);
    expect(n).toBe(2);
  });
});
