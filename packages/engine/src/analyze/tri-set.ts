import type { Algebra } from "../logic/algebra.ts";
import { type Bits, complementBits, intersectBitsOf, unionBitsOf } from "./bits.ts";

/**
 * For every action of a window at once: `sure` holds the actions for which the value is
 * true, `maybe` those for which it is true or undecided (sure ⊆ maybe). This is the
 * same three-valued logic as folded formulas, so results agree with `authorize`.
 */
export interface TriSet {
  sure: Bits;
  maybe: Bits;
}

export const TRI_TRUE: TriSet = { sure: 1, maybe: 1 };
export const TRI_FALSE: TriSet = { sure: 0, maybe: 0 };

export function createTriSetAlgebra(width: number): Algebra<TriSet> {
  return {
    TRUE: TRI_TRUE,
    FALSE: TRI_FALSE,
    // One item is its own result; more are combined side by side, without copies of the sides.
    and: (...items) =>
      items.length === 0
        ? TRI_TRUE
        : items.length === 1
          ? (items[0] as TriSet)
          : {
              sure: intersectBitsOf(items, sureOf, width),
              maybe: intersectBitsOf(items, maybeOf, width),
            },
    or: (...items) =>
      items.length === 0
        ? TRI_FALSE
        : items.length === 1
          ? (items[0] as TriSet)
          : {
              sure: unionBitsOf(items, sureOf, width),
              maybe: unionBitsOf(items, maybeOf, width),
            },
    not: (item) => ({
      sure: complementBits(item.maybe, width),
      maybe: complementBits(item.sure, width),
    }),
  };
}

const sureOf = (set: TriSet): Bits => set.sure;
const maybeOf = (set: TriSet): Bits => set.maybe;
