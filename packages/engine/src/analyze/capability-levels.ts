import { CAPABILITIES, type Capability } from "@sightline/capabilities";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { Bits } from "./bits.ts";
import type { TriSet } from "./tri-set.ts";

export interface CapabilityLevel {
  readonly capability: Capability;
  readonly conditional: boolean;
  /** The capability's position in `CAPABILITIES`. */
  readonly capabilityIndex: number;
}

/** The twelve levels, shared (frozen) by every result. */
const LEVELS: readonly (readonly [CapabilityLevel, CapabilityLevel])[] = CAPABILITIES.map(
  (capability, capabilityIndex) =>
    [
      Object.freeze({ capability, conditional: false, capabilityIndex }),
      Object.freeze({ capability, conditional: true, capabilityIndex }),
    ] as const,
);

function meets(
  bits: Bits,
  offset: number,
  cap: Uint32Array,
  own: Uint32Array,
  first: number,
): boolean {
  if (bits === 0) return false;
  for (let w = 0; w < own.length; w++) {
    const mask = (own[w] as number) & (cap[first + w] as number);
    if (mask === 0) continue;
    if (bits === 1 || ((bits[first + w - offset] as number) & mask) !== 0) return true;
  }
  return false;
}

/**
 * The capabilities a decision set gives within one prefix: held when some action of
 * the capability is allowed, conditional when only conditionally allowed ones exist.
 * `offsetWord` is the first word the set covers (0 for a full-catalogue set).
 */
export function capabilityLevels(
  index: ActionIndex,
  set: TriSet,
  offsetWord: number,
  window: PrefixWindow,
): readonly CapabilityLevel[] {
  if (
    set.maybe === 0 ||
    !meets(set.maybe, offsetWord, index.fullWindow.ownMask, window.ownMask, window.firstWord)
  )
    return NO_LEVELS;
  // Base 3 per capability (0: not held, 1: held, 2: held under conditions): the lists are
  // shared, one per combination.
  const caps = index.capabilityMaskList;
  let code = 0;
  for (let k = caps.length - 1; k >= 0; k--) {
    const cap = caps[k] as Uint32Array;
    code *= 3;
    if (meets(set.sure, offsetWord, cap, window.ownMask, window.firstWord)) code += 1;
    else if (meets(set.maybe, offsetWord, cap, window.ownMask, window.firstWord)) code += 2;
  }
  return LEVEL_LISTS[code] as readonly CapabilityLevel[];
}

const NO_LEVELS: readonly CapabilityLevel[] = Object.freeze([]);
/** Every list of levels, by its code (`capabilityLevels`): 3^6 constant lists, shared. */
const LEVEL_LISTS: readonly (readonly CapabilityLevel[])[] = Array.from(
  { length: 3 ** CAPABILITIES.length },
  (_, code) => {
    const out: CapabilityLevel[] = [];
    for (let k = 0, rest = code; k < CAPABILITIES.length; k++, rest = Math.floor(rest / 3)) {
      const digit = rest % 3;
      if (digit !== 0)
        out.push((LEVELS[k] as readonly CapabilityLevel[])[digit - 1] as CapabilityLevel);
    }
    return Object.freeze(out);
  },
);

/** Does the statement's action set name an action of `capability` within the window? */
export function namesCapability(
  index: ActionIndex,
  actions: Uint32Array,
  capability: Capability,
  window: PrefixWindow,
): boolean {
  return meets(actions, 0, index.capabilityMask(capability), window.ownMask, window.firstWord);
}
