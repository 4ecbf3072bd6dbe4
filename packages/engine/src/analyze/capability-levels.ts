import { CAPABILITIES, type Capability } from "@sightline/capabilities";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { Bits } from "./bits.ts";
import type { TriSet } from "./tri-set.ts";

export interface CapabilityLevel {
  capability: Capability;
  conditional: boolean;
}

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
  for (const capability of CAPABILITIES) {
    const cap = index.capabilityMask(capability);
    if (meets(set.sure, offsetWord, cap, window.ownMask, window.firstWord))
      out.push({ capability, conditional: false });
    else if (meets(set.maybe, offsetWord, cap, window.ownMask, window.firstWord))
      out.push({ capability, conditional: true });
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
