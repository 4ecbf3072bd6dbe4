/**
 * IAM wildcard matching without regular expressions: `*` matches any run of characters, `?`
 * exactly one. The pattern is split at `*`; the first piece must start the text, the last must
 * end it, and each middle piece is taken at its leftmost place, which is always a valid choice.
 * Time is bounded by text length × pattern length, never exponential.
 */
export function matchGlob(pattern: string, text: string, ignoreCase = false): boolean {
  const p = ignoreCase ? pattern.toLowerCase() : pattern;
  const t = ignoreCase ? text.toLowerCase() : text;
  const pieces = p.split("*");
  const first = pieces[0] ?? "";
  if (pieces.length === 1) return t.length === p.length && matchesAt(p, t, 0);
  const last = pieces[pieces.length - 1] ?? "";
  const end = t.length - last.length;
  if (end < first.length || !matchesAt(first, t, 0) || !matchesAt(last, t, end)) return false;
  let position = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? "";
    const at = findPiece(piece, t, position, end);
    if (at < 0) return false;
    position = at + piece.length;
  }
  return true;
}

function matchesAt(piece: string, text: string, at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    const ch = piece[i];
    if (ch !== "?" && ch !== text[at + i]) return false;
  }
  return true;
}

/** The leftmost place at or after `from` where `piece` fits and ends by `end`, or -1. */
function findPiece(piece: string, text: string, from: number, end: number): number {
  if (!piece.includes("?")) {
    const at = text.indexOf(piece, from);
    return at >= 0 && at + piece.length <= end ? at : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (matchesAt(piece, text, at)) return at;
  return -1;
}
