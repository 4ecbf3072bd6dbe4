/**
 * IAM wildcard matching without regular expressions: `*` matches any run of characters, `?`
 * exactly one. A pattern is split at its `*`s into pieces; the first piece must start the text,
 * the last must end it, and each middle piece is taken at its leftmost place, which is always a
 * valid choice. Time is bounded by text length × pattern length, never exponential — a
 * backtracking regular expression takes seconds on `*a*a*a*a*a*b` against a long ARN.
 */

/** A run of characters between two `*`s; `wild[i]` marks a `?` at position i. */
interface GlobPiece {
  readonly text: string;
  /** Absent when the piece has no `?`: it is then found with `indexOf`. */
  readonly wild?: readonly boolean[];
}

/** A pattern compiled once, matched many times (`matchCompiledGlob`). */
export interface CompiledGlob {
  /** One piece: no `*`, the text must match it whole. */
  readonly pieces: readonly GlobPiece[];
  readonly ignoreCase: boolean;
}

/** A part of a pattern: wildcard text, or literal text (a substituted policy variable). */
export interface GlobPart {
  text: string;
  literal: boolean;
}

/** Compiles parts into pieces; in literal parts `*` and `?` are plain characters. */
export function compileGlobParts(parts: readonly GlobPart[], ignoreCase = false): CompiledGlob {
  const pieces: GlobPiece[] = [];
  let text = "";
  let wild: boolean[] = [];
  let anyWild = false;
  for (const part of parts) {
    const source = part.text;
    for (let i = 0; i < source.length; i++) {
      // Whole code points: folding may lengthen a character (İ, ß).
      let ch = source[i] as string;
      if ((source.codePointAt(i) as number) > 0xffff) {
        ch = source.slice(i, i + 2);
        i++;
      }
      if (!part.literal && ch === "*") {
        pieces.push(anyWild ? { text, wild } : { text });
        text = "";
        wild = [];
        anyWild = false;
        continue;
      }
      const isWild = !part.literal && ch === "?";
      // Mark each unit the character becomes.
      const units = ignoreCase ? foldCharacter(ch) : ch;
      text += units;
      for (let u = 0; u < units.length; u++) wild.push(isWild);
      anyWild ||= isWild;
    }
  }
  pieces.push(anyWild ? { text, wild } : { text });
  return { pieces, ignoreCase };
}

/** Compiles a wildcard pattern. */
export function compileGlob(pattern: string, ignoreCase = false): CompiledGlob {
  // Without `?`, and folded as a whole only when that is plain lowercasing (ASCII), the pieces
  // are the pattern split at its `*`s.
  if (!pattern.includes("?") && (!ignoreCase || ASCII.test(pattern))) {
    const text = ignoreCase ? pattern.toLowerCase() : pattern;
    return { pieces: text.split("*").map((piece) => ({ text: piece })), ignoreCase };
  }
  return compileGlobParts([{ text: pattern, literal: false }], ignoreCase);
}

/** Only ASCII characters: no UTF-16 unit above 0x7f. */
const ASCII = /^[^\u0080-\uffff]*$/;

/**
 * Case folding for case-insensitive matching, applied alike to the pattern (piece by piece, as
 * it is compiled) and to the text (whole, as it is matched): each code point folded on its own,
 * so that folding a string is folding its characters one by one, wherever they stand. Lowering
 * a string as a whole is not that: a final Σ lowers to ς, any other to σ, so a pattern lowered
 * per character and a text lowered whole disagreed (`aΣ` against `aΣ`).
 *
 * A character folds as its lowercase's uppercase's lowercase, which is Unicode's default full
 * case folding (CaseFolding.txt, statuses C and F: σ, ς and Σ fold alike, ß and ẞ to `ss`, İ
 * to `i̇`) for every code point but the dotless ı, which that would fold to i and full folding
 * keeps apart: it is left as it is. AWS documents action names and the `...IgnoreCase`
 * operators as case-insensitive without saying how a letter outside ASCII folds; what matters
 * here is that both sides fold by one function. Folding may lengthen a text (ß to `ss`); a `?`
 * then stands for one UTF-16 unit of the folded text, as it does of any text.
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let folded = "";
  for (const ch of text) folded += foldCharacter(ch);
  return folded;
}

/** One code point folded (`foldCase`). */
function foldCharacter(ch: string): string {
  if (ch < "\u0080") return ch.toLowerCase();
  return ch === "ı" ? ch : ch.toLowerCase().toUpperCase().toLowerCase();
}

/** Does the text match the compiled pattern? */
export function matchCompiledGlob(glob: CompiledGlob, text: string): boolean {
  return matchFoldedGlob(glob, glob.ignoreCase ? foldCase(text) : text);
}

/**
 * `matchCompiledGlob` for a text already folded when the pattern ignores case
 * (`foldCase(text)`): for texts matched against many patterns, such as the catalogue's action
 * names, which are folded once instead of once per pattern.
 */
export function matchFoldedGlob(glob: CompiledGlob, t: string): boolean {
  const { pieces } = glob;
  const first = pieces[0] as GlobPiece;
  if (pieces.length === 1) return t.length === first.text.length && matchesAt(first, t, 0);
  const last = pieces[pieces.length - 1] as GlobPiece;
  const end = t.length - last.text.length;
  if (end < first.text.length || !matchesAt(first, t, 0) || !matchesAt(last, t, end)) return false;
  let position = first.text.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as GlobPiece;
    const at = findPiece(piece, t, position, end);
    if (at < 0) return false;
    position = at + piece.text.length;
  }
  return true;
}

/** Matches a wildcard pattern against a text (compiles the pattern each time). */
export function matchGlob(pattern: string, text: string, ignoreCase = false): boolean {
  return matchCompiledGlob(compileGlob(pattern, ignoreCase), text);
}

function matchesAt(piece: GlobPiece, text: string, at: number): boolean {
  const { text: p, wild } = piece;
  if (!wild) return text.startsWith(p, at);
  for (let i = 0; i < p.length; i++) {
    if (!wild[i] && p[i] !== text[at + i]) return false;
  }
  return true;
}

/** The leftmost place at or after `from` where `piece` fits and ends by `end`, or -1. */
function findPiece(piece: GlobPiece, text: string, from: number, end: number): number {
  const length = piece.text.length;
  if (!piece.wild) {
    const at = text.indexOf(piece.text, from);
    return at >= 0 && at + length <= end ? at : -1;
  }
  for (let at = from; at + length <= end; at++) if (matchesAt(piece, text, at)) return at;
  return -1;
}
