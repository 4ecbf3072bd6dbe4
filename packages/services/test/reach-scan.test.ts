import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanReach } from "../src/results/reach-encoding.ts";

/**
 * `scanReach` reads its varints inline, for speed: checked against the plain way of reading
 * unsigned LEB128, on entries with numbers up to 2^40 and on bytes cut short anywhere.
 */

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

type Entry = [number, number, number, number];

/** The plain way: one varint at a time, a byte at a time. */
function plainScan(bytes: Uint8Array): { entries: (Entry | [number, number])[]; whole: boolean } {
  const entries: (Entry | [number, number])[] = [];
  let at = 0;
  const read = (): number | undefined => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) return undefined;
      const byte = bytes[at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  while (at < bytes.length) {
    const start = at;
    const p = read();
    const c = read();
    const g = read();
    const flags = at < bytes.length ? (bytes[at++] as number) : undefined;
    if (p === undefined || c === undefined || g === undefined || flags === undefined)
      return { entries, whole: false };
    entries.push([p, c, g, flags], [start, at]);
  }
  return { entries, whole: true };
}

const number = fc.oneof(
  fc.integer({ min: 0, max: 127 }),
  fc.integer({ min: 128, max: 20_000 }),
  fc.integer({ min: 0, max: 2 ** 40 }),
);
const entry = fc.tuple(number, number, number, fc.integer({ min: 0, max: 3 }));

describe("scanReach", () => {
  it("reads each entry's numbers and where it is as the plain way does, and refuses cut bytes", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.nat(), (entries, cut) => {
        const all = Uint8Array.from(
          entries.flatMap(([p, c, g, f]) => [...varint(p), ...varint(c), ...varint(g), f]),
        );
        for (const bytes of [all, all.subarray(0, all.length === 0 ? 0 : cut % all.length)]) {
          const plain = plainScan(bytes);
          const seen: (Entry | [number, number])[] = [];
          const scan = () =>
            scanReach(bytes, (p, c, g, f, start, end) => seen.push([p, c, g, f], [start, end]));
          if (plain.whole) scan();
          else expect(scan).toThrow("A stored reach ends inside an entry.");
          expect(seen).toEqual(plain.entries);
        }
      }),
      { numRuns: 500 },
    );
  });
});
