import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, compileGlobParts, foldCase, matchCompiledGlob, matchGlob } from "./glob.ts";

/** The obvious definition, exponential on purpose: only for short inputs. */
function reference(pattern: string, text: string): boolean {
  if (pattern === "") return text === "";
  const [head, rest] = [pattern[0], pattern.slice(1)];
  if (head === "*")
    return [...Array(text.length + 1).keys()].some((i) => reference(rest, text.slice(i)));
  return text !== "" && (head === "?" || head === text[0]) && reference(rest, text.slice(1));
}

/**
 * The fold written out plainly, one code point at a time: Unicode full case folding as
 * lowercase∘uppercase∘lowercase of each code point alone, dotless ı left as it is.
 */
function plainFold(text: string): string {
  return Array.from(text, (c) =>
    c === "ı" ? c : c.toLowerCase().toUpperCase().toLowerCase(),
  ).join("");
}

/**
 * Case-insensitive matching, independently: both strings folded the same way, then the naive
 * matcher. The IAM User Guide, 'IAM JSON policy elements: Action', says the prefix and the
 * action name are case insensitive ('iam:ListAccessKeys' is 'IAM:listaccesskeys'); 'IAM JSON
 * policy elements: Condition operators', section 'String condition operators', has
 * StringEqualsIgnoreCase ('exact matching, ignoring case'). Neither says how a letter outside
 * ASCII folds: both sides are folded by the same function, so the answer never depends on
 * which side a letter is written on, nor on where it stands in the string.
 */
function referenceIgnoringCase(pattern: string, text: string): boolean {
  return reference(plainFold(pattern), plainFold(text));
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

  it("folds pattern and text alike outside ASCII (Greek final sigma, dotted İ, ß)", () => {
    // Lowercased as a whole, the text's final Σ becomes ς while the pattern's became σ.
    expect(matchGlob("aΣ", "aΣ", true)).toBe(true);
    expect(matchGlob("aΣ", "aς", true)).toBe(true);
    expect(matchGlob("aς", "AΣ", true)).toBe(true);
    expect(matchGlob("ΟΔΟΣ*", "οδος-1", true)).toBe(true);
    expect(matchGlob("straße", "STRASSE", true)).toBe(true);
    expect(matchGlob("ẞ", "ß", true)).toBe(true);
    expect(matchGlob("İ", "i̇", true)).toBe(true);
    // Full case folding keeps the dotless ı apart from i (Unicode CaseFolding.txt, status C/F).
    expect(matchGlob("ı", "I", true)).toBe(false);
    expect(matchGlob("aΣ", "aς", false)).toBe(false);
  });

  it("ignores case like the reference folding both sides, non-ASCII alphabets included", () => {
    const letter = fc.constantFrom(
      "a",
      "A",
      "s",
      "S",
      "σ",
      "ς",
      "Σ",
      "i",
      "I",
      "İ",
      "ı",
      "\u0307",
      "ß",
      "ẞ",
      "ﬀ",
      "f",
      "K",
      "k",
      "/",
    );
    const text = fc.array(letter, { maxLength: 8 }).map((cs) => cs.join(""));
    const pattern = fc
      .array(fc.oneof({ weight: 4, arbitrary: letter }, fc.constantFrom("*", "?")), {
        maxLength: 7,
      })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        const expected = referenceIgnoringCase(p, t);
        expect(matchGlob(p, t, true)).toBe(expected);
        // The same answer from the pattern as parts, and from the text written in either case.
        expect(matchCompiledGlob(compileGlobParts([{ text: p, literal: false }], true), t)).toBe(
          expected,
        );
        expect(matchGlob(p, t.toUpperCase(), true)).toBe(referenceIgnoringCase(p, t.toUpperCase()));
        expect(matchGlob(p, t.toLowerCase(), true)).toBe(referenceIgnoringCase(p, t.toLowerCase()));
      }),
      { numRuns: 5000 },
    );
  });

  it("matches a word with itself in either case", () => {
    const letter = fc.constantFrom("a", "Σ", "ς", "σ", "İ", "ß", "ẞ", "Ǆ", "ǅ", "ǆ", "😀", "-");
    const word = fc.array(letter, { maxLength: 8 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(word, (w) => {
        for (const p of [w, w.toUpperCase(), w.toLowerCase()])
          for (const t of [w, w.toUpperCase(), w.toLowerCase()]) {
            expect(foldCase(p)).toBe(plainFold(p));
            expect(matchGlob(p, t, true)).toBe(true);
          }
      }),
      { numRuns: 2000 },
    );
  });
});
