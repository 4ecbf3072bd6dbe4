import type { Algebra } from "../logic/algebra.ts";
import { type Bits, complementBits, intersectBits, unionBits } from "./bits.ts";

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
    and: (...items) =>
      items.length === 0
        ? TRI_TRUE
        : {
            sure: intersectBits(
              items.map((i) => i.sure),
              width,
            ),
            maybe: intersectBits(
              items.map((i) => i.maybe),
              width,
            ),
          },
    or: (...items) =>
      items.length === 0
        ? TRI_FALSE
        : {
            sure: unionBits(
              items.map((i) => i.sure),
              width,
            ),
            maybe: unionBits(
              items.map((i) => i.maybe),
              width,
            ),
          },
    not: (item) => ({
      sure: complementBits(item.maybe, width),
      maybe: complementBits(item.sure, width),
    }),
  };
}
