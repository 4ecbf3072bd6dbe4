import { describe, expect, it } from "vitest";
import { recordsetJson } from "../src/recordset-json.ts";

describe("recordsetJson", () => {
  it("turns lone surrogates into U+FFFD and keeps everything else as JSON.stringify writes it", () => {
    const rows = [
      { name: "half \ud83d", low: "\udc00 first", pair: "😀", both: "\ud83d\ud83d" },
      // Text that only looks like an escape: a backslash, then `ud800`.
      { literal: "\\ud800", escapedThenLone: "\\\ud800", quote: '"\\u0041"' },
    ];
    const json = recordsetJson(rows);
    expect(JSON.parse(json)).toEqual([
      { name: "half \ufffd", low: "\ufffd first", pair: "😀", both: "\ufffd\ufffd" },
      { literal: "\\ud800", escapedThenLone: "\\\ufffd", quote: '"\\u0041"' },
    ]);
    const plain = [{ a: "plain", b: { c: [1, "ü"] } }];
    expect(recordsetJson(plain)).toBe(JSON.stringify(plain));
  });
});
