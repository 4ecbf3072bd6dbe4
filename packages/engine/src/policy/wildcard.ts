import { matchGlob } from "./glob.ts";

/** IAM wildcards: `*` matches any run of characters, `?` exactly one (linear time, `glob.ts`). */
export function matchesWildcard(pattern: string, value: string, caseInsensitive: boolean): boolean {
  return pattern === "*" || matchGlob(pattern, value, caseInsensitive);
}
