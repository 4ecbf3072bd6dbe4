import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, compileGlobParts, matchCompiledGlob, matchGlob } from "./glob.ts";

/** The obvious definition, exponential on purpose: only for short inputs. */
function reference(pattern: string, text: string): boolean {
  if (pattern === "") return text === "";
  const [head, rest] = [pattern[0], pattern.slice(1)];
  if (head === "*")
    return [...Array(text.length + 1).keys()].some((i) => reference(rest, text.slice(i)));
  return text !== "" && (head === "?" || head === text[0]) && reference(rest, text.slice(1));
}

describe("matchGlob", () => {
  it("matches `*` and `?` like the reference on short inputs", () => {
    const alphabet = fc.constantFrom("a", "b", "/", ":");
    const text = fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join(""));
    const pattern = fc
      .array(fc.oneof(alphabet, fc.constant("*"), fc.constant("?")), { maxLength: 8 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(matchGlob(p, t)).toBe(reference(p, t));
      }),
      { numRuns: 5000 },
    );
  });

  it("is case-sensitive unless asked otherwise", () => {
    expect(matchGlob("s3:Get*", "s3:getobject")).toBe(false);
    expect(matchGlob("s3:Get*", "s3:getobject", true)).toBe(true);
    expect(matchGlob("arn:aws:s3:::Bucket/*", "arn:aws:s3:::bucket/key")).toBe(false);
  });

  it("decides pathological patterns (exponential for a backtracking regex)", () => {
    const text = `arn:aws:s3:::${"a".repeat(1024)}`;
    expect(matchGlob("arn:aws:s3:::*a*a*a*a*a*a*a*a*a*a*b", text)).toBe(false);
    expect(matchGlob("arn:aws:s3:::*-*-*-*-prod", `arn:aws:s3:::${"x-".repeat(500)}`)).toBe(false);
  });

  it("takes literal parts (substituted policy variables) as plain text, `*` and `?` included", () => {
    const glob = compileGlobParts([
      { text: "arn:aws:s3:::home/", literal: false },
      { text: "a*?", literal: true },
      { text: "/*", literal: false },
    ]);
    expect(matchCompiledGlob(glob, "arn:aws:s3:::home/a*?/notes.txt")).toBe(true);
    expect(matchCompiledGlob(glob, "arn:aws:s3:::home/abc/notes.txt")).toBe(false);
    expect(matchCompiledGlob(glob, "arn:aws:s3:::home/a*x/notes.txt")).toBe(false);
  });

  it("compiles a whole pattern as it compiles the same text as one wildcard part", () => {
    const char = fc.constantFrom("a", "B", "*", "?", "İ", "Σ", "/", "😀");
    const pattern = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(pattern, fc.boolean(), (p, ignoreCase) => {
        expect(compileGlob(p, ignoreCase)).toEqual(
          compileGlobParts([{ text: p, literal: false }], ignoreCase),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("ignores case even where lowercasing lengthens a character", () => {
    // "İ" lowercases to two UTF-16 units: the `?` after it must still stand for one character.
    expect(matchGlob("İ?x", "i̇ax", true)).toBe(true);
    expect(matchGlob("İ?x", "İAX", true)).toBe(true);
    expect(matchGlob("İ?x", "İAAX", true)).toBe(false);
  });
});
