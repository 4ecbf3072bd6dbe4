import { matchGlob } from "./glob.ts";

/** Compiles IAM wildcards: `*` matches any run of characters, `?` exactly one. */
const cache = new Map<string, RegExp>();
const CACHE_LIMIT = 100_000;

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export function wildcardToRegexSource(text: string): string {
  let out = "";
  for (const ch of text) {
    if (ch === "*") out += ".*";
    else if (ch === "?") out += ".";
    else out += escapeRegex(ch);
  }
  return out;
}

/** A cached anchored regex for a wildcard pattern without policy variables. */
export function compileWildcard(pattern: string, caseInsensitive: boolean): RegExp {
  const cacheKey = (caseInsensitive ? "i:" : "s:") + pattern;
  let re = cache.get(cacheKey);
  if (!re) {
    // Bounded memoisation: a huge stream of distinct patterns must not grow memory forever.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    re = new RegExp(`^${wildcardToRegexSource(pattern)}$`, caseInsensitive ? "is" : "s");
    cache.set(cacheKey, re);
  }
  return re;
}

export function matchesWildcard(pattern: string, value: string, caseInsensitive: boolean): boolean {
  return pattern === "*" || matchGlob(pattern, value, caseInsensitive);
}
