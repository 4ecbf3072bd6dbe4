import type { PolicyType } from "../policy/policy-types.ts";

/** A condition the engine could not decide: the request is allowed only if it holds. */
export interface ConditionAtom {
  policyId: string;
  policyType: PolicyType;
  statement: string;
  /**
   * The operator as written, e.g. `StringEqualsIfExists`; `"Variable"` for an unresolved
   * policy variable; `"Invalid"` for an invalid Deny kept as one that may apply (`key`: the
   * elements at fault, `values`: the parse issues), which no context decides;
   * `"UnresolvedVariable"` for a statement that applies through its NotResource only if AWS
   * keeps it although a variable there has no value (`key`: the variables, `values`: the
   * patterns holding them), which no context decides either.
   */
  operator: string;
  key: string;
  values: readonly string[];
}

/** A boolean formula over undecided conditions, folded as it is built. */
export type Formula =
  | { kind: "true" }
  | { kind: "false" }
  | { kind: "atom"; atom: ConditionAtom }
  | { kind: "not"; item: Formula }
  | { kind: "and"; items: Formula[] }
  | { kind: "or"; items: Formula[] };

export const TRUE: Formula = { kind: "true" };
export const FALSE: Formula = { kind: "false" };

export function atom(value: ConditionAtom): Formula {
  return { kind: "atom", atom: value };
}

export function fromBoolean(value: boolean): Formula {
  return value ? TRUE : FALSE;
}

export function not(item: Formula): Formula {
  if (item.kind === "true") return FALSE;
  if (item.kind === "false") return TRUE;
  if (item.kind === "not") return item.item;
  return { kind: "not", item };
}

export function and(...items: Formula[]): Formula {
  const kept: Formula[] = [];
  for (const item of items) {
    if (item.kind === "false") return FALSE;
    if (item.kind === "true") continue;
    if (item.kind === "and") kept.push(...item.items);
    else kept.push(item);
  }
  if (kept.length === 0) return TRUE;
  return kept.length === 1 ? (kept[0] as Formula) : { kind: "and", items: kept };
}

export function or(...items: Formula[]): Formula {
  const kept: Formula[] = [];
  for (const item of items) {
    if (item.kind === "true") return TRUE;
    if (item.kind === "false") continue;
    if (item.kind === "or") kept.push(...item.items);
    else kept.push(item);
  }
  if (kept.length === 0) return FALSE;
  return kept.length === 1 ? (kept[0] as Formula) : { kind: "or", items: kept };
}

/** Every undecided condition the formula mentions, in order, without repeats. */
export function listAtoms(f: Formula, out: ConditionAtom[] = []): ConditionAtom[] {
  if (f.kind === "atom") {
    if (!out.includes(f.atom)) out.push(f.atom);
  } else if (f.kind === "not") listAtoms(f.item, out);
  else if (f.kind === "and" || f.kind === "or") for (const item of f.items) listAtoms(item, out);
  return out;
}

/** Evaluates the formula once values are chosen for its atoms (used by tests and callers who learn more). */
export function evaluateFormula(f: Formula, value: (atom: ConditionAtom) => boolean): boolean {
  switch (f.kind) {
    case "true":
      return true;
    case "false":
      return false;
    case "atom":
      return value(f.atom);
    case "not":
      return !evaluateFormula(f.item, value);
    case "and":
      return f.items.every((item) => evaluateFormula(item, value));
    case "or":
      return f.items.some((item) => evaluateFormula(item, value));
  }
}
