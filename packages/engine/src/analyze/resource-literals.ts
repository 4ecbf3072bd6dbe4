import type { Statement } from "../policy/policy-types.ts";
import { matchesPatternAt } from "../policy/wildcard.ts";
import type { PrefixWindow } from "./action-index.ts";
import type { Bits } from "./bits.ts";
import type { TriSet } from "./tri-set.ts";

const GENERIC_NAME = "\u0001sightline-generic";

/**
 * A stand-in for `resource` that no policy names: the same ARN with its last name
 * segment replaced. Policies that match both alike need not be re-evaluated per resource.
 */
export function standInResource(resource: string): string {
  const object = resource.endsWith("/*");
  const base = object ? resource.slice(0, -2) : resource;
  const cut = Math.max(base.lastIndexOf("/"), base.lastIndexOf(":"));
  return `${base.slice(0, cut + 1)}${GENERIC_NAME}${object ? "/*" : ""}`;
}

/** Does a statement's Resource/NotResource treat the two resources differently? Variables count as different. */
export function matchesDiffer(statement: Statement, a: string, b: string): boolean {
  const patterns = statement.resource ?? statement.notResource;
  if (!patterns) return false;
  for (let i = 0; i < patterns.length; i++) {
    if ((patterns[i] as string).includes("${")) return true;
    if (matchesPatternAt(patterns, i, a) !== matchesPatternAt(patterns, i, b)) return true;
  }
  return false;
}

function encodeBits(bits: Bits): string {
  return bits === 0 || bits === 1 ? String(bits) : bits.join(".");
}

/** A content key for decision sets, so equal resource-side outcomes share results. */
export function encodeTriSets(sets: readonly TriSet[]): string {
  return sets.map((s) => `${encodeBits(s.sure)}/${encodeBits(s.maybe)}`).join("|");
}

export function isEmptyIn(set: TriSet, window: PrefixWindow): boolean {
  const maybe = set.maybe;
  if (maybe === 0) return true;
  if (maybe === 1) return false;
  for (let i = 0; i < window.ownMask.length; i++)
    if (((maybe[i] as number) & (window.ownMask[i] as number)) !== 0) return false;
  return true;
}
