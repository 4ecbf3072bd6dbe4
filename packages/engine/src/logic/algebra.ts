import { and, FALSE, type Formula, not, or, TRUE } from "./formula.ts";

/**
 * Three-valued logic (true / false / undecided) that the decision rules are written
 * against once: `authorize` runs them on formulas, `analyzeAccount` on action sets.
 */
export interface Algebra<T> {
  readonly TRUE: T;
  readonly FALSE: T;
  and(...items: T[]): T;
  or(...items: T[]): T;
  not(item: T): T;
}

export const formulaAlgebra: Algebra<Formula> = { TRUE, FALSE, and, or, not };
