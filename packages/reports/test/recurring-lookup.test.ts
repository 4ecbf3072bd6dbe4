import { describe, expect, it } from "vitest";
import { RecurringLookup } from "../src/index.ts";
import { seededRandom } from "./seeded-random.ts";

describe("RecurringLookup", () => {
  it("answers as its find does, asking it once per key, in runs that recur, break and repeat", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const next = seededRandom(seed);
      const keys = Array.from({ length: 300 }, (_, i) => `arn:aws:iam::111122223333:role/r${i}`);
      const asked = new Map<string, number>();
      const lookup = new RecurringLookup((key) => {
        asked.set(key, (asked.get(key) ?? 0) + 1);
        return `${key}!`;
      });
      // The same keys, remembering a few at a time: they are found again, right.
      const forgetful = new RecurringLookup((key) => `${key}!`, 7);
      for (let run = 0; run < 200; run++) {
        // A run of consecutive keys from a random start, sometimes with gaps or a key twice.
        const start = Math.floor(next() * keys.length);
        const length = Math.floor(next() * 40);
        for (let i = 0; i < length; i++) {
          if (next() < 0.1) continue;
          const key = keys[(start + i) % keys.length] as string;
          // A new string of the same text is the same key.
          const asKey = next() < 0.1 ? `${key} `.trimEnd() : key;
          expect(lookup.get(asKey)).toBe(`${key}!`);
          expect(forgetful.get(asKey)).toBe(`${key}!`);
          if (next() < 0.05) expect(lookup.get(key)).toBe(`${key}!`);
        }
      }
      expect([...asked.values()].every((n) => n === 1)).toBe(true);
    }
  });

  it("keeps an answer of undefined, and asks again after a find that failed", () => {
    let calls = 0;
    const lookup = new RecurringLookup<string | undefined>((key) => {
      calls++;
      if (key === "bad" && calls === 1) throw new Error("no answer");
      return key === "none" ? undefined : key.toUpperCase();
    });
    expect(() => lookup.get("bad")).toThrow("no answer");
    expect(lookup.get("bad")).toBe("BAD");
    expect(lookup.get("none")).toBeUndefined();
    expect(lookup.get("none")).toBeUndefined();
    expect(lookup.get("bad")).toBe("BAD");
    expect(calls).toBe(3);
  });
});
