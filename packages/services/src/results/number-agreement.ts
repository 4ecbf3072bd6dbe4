import type { StoredResourceResult } from "@sightline/db";
import { type ReachDictionary, scanReach } from "./reach-encoding.ts";
import { resourceParts } from "./result-records.ts";

/**
 * Whether a stored resource's reach names a principal or capability by a number that two
 * analyses' reach dictionaries give to different ones; undefined when they agree on every number.
 * Two whole analyses number principals in the order they meet them: a principal removed and
 * another added may take its number, and a resource's bytes then stay the same while who reaches
 * it changed. An event step's numbering extends the one it steps from: it needs no such check.
 */
export function numberAgreement(
  before: Pick<ReachDictionary, "principals" | "capabilities">,
  after: Pick<ReachDictionary, "principals" | "capabilities">,
): ((stored: StoredResourceResult) => boolean) | undefined {
  const differing = <T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean) => {
    const out = new Uint8Array(Math.max(a.length, b.length));
    let any = false;
    for (let i = 0; i < out.length; i++) {
      const [x, y] = [a[i], b[i]];
      if (x === undefined || y === undefined || !same(x, y)) [out[i], any] = [1, true];
    }
    return { out, any };
  };
  const principals = differing(
    before.principals,
    after.principals,
    (x, y) => x[0] === y[0] && x[1] === y[1],
  );
  const capabilities = differing(before.capabilities, after.capabilities, (x, y) => x === y);
  if (!principals.any && !capabilities.any) return undefined;
  return (stored) => {
    let found = false;
    scanReach(resourceParts(stored).reach, (principal, capability) => {
      if (principals.out[principal] !== 0 || capabilities.out[capability] !== 0) found = true;
    });
    return found;
  };
}
