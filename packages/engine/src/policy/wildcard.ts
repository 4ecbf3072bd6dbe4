import { type CompiledGlob, compileGlob, matchCompiledGlob, matchGlob } from "./glob.ts";

/** IAM wildcards: `*` matches any run of characters, `?` exactly one (linear time, `glob.ts`). */
export function matchesWildcard(pattern: string, value: string, caseInsensitive: boolean): boolean {
  return pattern === "*" || matchGlob(pattern, value, caseInsensitive);
}

/**
 * The patterns of a policy element (a statement's Resource or NotResource list), compiled
 * once while the element lives (case-sensitive, as written: a pattern with a policy
 * variable must be substituted first, not matched with this).
 */
export function compiledPatterns(patterns: readonly string[]): readonly CompiledGlob[] {
  let compiled = compiledLists.get(patterns);
  if (!compiled) {
    compiled = patterns.map((p) => compileGlob(p));
    compiledLists.set(patterns, compiled);
  }
  return compiled;
}

/** Keyed by the element's own array: what is kept depends on nothing else, and goes with it. */
const compiledLists = new WeakMap<readonly string[], readonly CompiledGlob[]>();

/** `matchesWildcard` for the i-th pattern of an element listed by `compiledPatterns`. */
export function matchesPatternAt(patterns: readonly string[], i: number, value: string): boolean {
  return (
    patterns[i] === "*" || matchCompiledGlob(compiledPatterns(patterns)[i] as CompiledGlob, value)
  );
}
