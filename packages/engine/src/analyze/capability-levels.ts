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
): CapabilityLevel[] {
  const out: CapabilityLevel[] = [];
  if (
    set.maybe === 0 ||
    !meets(set.maybe, offsetWord, index.fullWindow.ownMask, window.ownMask, window.firstWord)
  )
    return out;
  const caps = index.capabilityMaskList;
  for (let k = 0; k < caps.length; k++) {
    const cap = caps[k] as Uint32Array;
    const levels = LEVELS[k] as readonly [CapabilityLevel, CapabilityLevel];
    if (meets(set.sure, offsetWord, cap, window.ownMask, window.firstWord)) out.push(levels[0]);
    else if (meets(set.maybe, offsetWord, cap, window.ownMask, window.firstWord))
      out.push(levels[1]);
  }
  return out;
}

/** Does the statement's action set name an action of `capability` within the window? */
export function namesCapability(
  index: ActionIndex,
  actions: Uint32Array,
  capability: Capability,
  window: PrefixWindow,
): boolean {
  return meets(actions, 0, index.capabilityMask(capability), window.ownMask, window.firstWord);
}
