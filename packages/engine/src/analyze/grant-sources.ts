import { CAPABILITIES, type Capability } from "@sightline/capabilities";
import { statementAppliesToResource } from "../authorize/evaluate-statement.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { GrantSource } from "./analysis-types.ts";
import type { Bits } from "./bits.ts";
import type { GrantNames } from "./grant-names.ts";
import type { PolicyIds } from "./policy-traits.ts";
import type { TriSet } from "./tri-set.ts";

/**
 * Which policies grant a row ("granted by"). Computed from a decision set already at hand
 * (per policy set, or per resource and group of principals), never per principal × action:
 * an Allow statement grants a capability when it names an action of the capability that
 * the decision allows (maybe under conditions) and it applies to the resource. Deny
 * statements are never listed: a Deny that carves part out takes nothing from what the
 * remaining actions are granted by.
 */

/** A policy and its statements that give a capability. */
export interface GrantingPolicy {
  policy: Policy;
  statements: Statement[];
}

/** Granting policies, and once named, their grant sources (shared by every row they grant). */
export interface GrantList {
  readonly policies: readonly GrantingPolicy[];
  named?: readonly GrantSource[];
}

/** An Allow statement of a policy, with its action set. */
export interface AllowStatement {
  policy: Policy;
  statement: Statement;
  actions: Uint32Array;
}
type Candidate = AllowStatement;

/** The valid Allow statements of `policies`: list them once to search them per window. */
export function allowStatements(index: ActionIndex, policies: readonly Policy[]): AllowStatement[] {
  const out: AllowStatement[] = [];
  for (const policy of policies)
    for (const statement of policy.statements)
      if (statement.effect === "Allow" && !statement.invalid)
        out.push({ policy, statement, actions: index.actionSet(statement) });
  return out;
}

const isAllowList = (
  list: readonly Policy[] | readonly AllowStatement[],
): list is readonly AllowStatement[] => list.length > 0 && "actions" in (list[0] as object);

/**
 * The Allow statements that give actions a decision set allows within one window, and
 * for each capability the policies among them that give one of its actions. Lists are
 * shared by the capabilities (and rows) that the same statements give.
 */
export class GrantCandidates {
  /** Lists by the candidates they hold, when no `GrantNames` interns them. */
  private lists: Map<number | string, GrantList> | undefined;
  /** Per candidate, a bit per capability (`CAPABILITIES` order) it gives an allowed action of. */
  private capabilityBits: number[] | undefined;

  private constructor(
    private readonly index: ActionIndex,
    private readonly list: readonly Candidate[],
    private readonly set: TriSet,
    private readonly offsetWord: number,
    private readonly window: PrefixWindow,
  ) {}

  /**
   * The Allow statements of `policies` that give actions `set` allows within the window
   * and that `applies` (to the resource; for resource policies, to the caller too).
   * `offsetWord` is the first word `set` covers (0 for a full-catalogue set).
   */
  static find(
    index: ActionIndex,
    policies: readonly Policy[] | readonly AllowStatement[],
    set: TriSet,
    offsetWord: number,
    window: PrefixWindow,
    applies: (policy: Policy, statement: Statement) => boolean,
  ): GrantCandidates {
    const allows = isAllowList(policies) ? policies : allowStatements(index, policies);
    const out = gather(undefined, allows, { set, offsetWord, window, applies });
    return new GrantCandidates(index, out ?? NO_CANDIDATES, set, offsetWord, window);
  }

  /**
   * As `find`, over the Allow statements of `policies` as `names` lists them per window
   * (shared objects, so `granting` can intern the lists).
   */
  static ofPolicies(
    names: GrantNames,
    index: ActionIndex,
    policies: readonly Policy[],
    set: TriSet,
    offsetWord: number,
    window: PrefixWindow,
    applies: (policy: Policy, statement: Statement) => boolean,
  ): GrantCandidates {
    let out: Candidate[] | undefined;
    const query = { set, offsetWord, window, applies };
    for (const policy of policies) {
      const allows = names.allowsIn(index, policy, window);
      if (allows) out = gather(out, allows, query);
    }
    return new GrantCandidates(index, out ?? NO_CANDIDATES, set, offsetWord, window);
  }

  /**
   * The policies (in policy order) whose candidates give an allowed action of `capability`;
   * with `names`, one list object per content for the analysis.
   */
  granting(capability: Capability, names?: GrantNames): GrantList {
    const n = this.list.length;
    if (n === 0) return NO_GRANTS;
    const k = CAPABILITIES.indexOf(capability);
    if (n === 1 && names) {
      // Most windows have one candidate: test it on this capability alone.
      const sole = this.list[0] as Candidate;
      return this.gives(sole, k) ? names.listOf(this.list, ALL_BITS, 1) : NO_GRANTS;
    }
    this.capabilityBits ??= this.computeCapabilityBits();
    const bits = this.capabilityBits;
    const bit = 1 << k;
    if (names) return names.listOf(this.list, bits, bit);
    // Which candidates give it, as a key: lists are shared by the capabilities they serve.
    let key: number | string = n <= 30 ? 0 : "";
    for (let i = 0; i < n; i++) {
      if (((bits[i] as number) & bit) === 0) continue;
      if (typeof key === "number") key |= 1 << i;
      else key += `${i},`;
    }
    this.lists ??= new Map();
    let found = this.lists.get(key);
    if (!found) {
      found = grantListOf(this.list, bits, bit);
      this.lists.set(key, found);
    }
    return found;
  }

  /** Whether candidate `c` gives an allowed action of capability `k` (`CAPABILITIES` order). */
  private gives(c: Candidate, k: number): boolean {
    const cap = this.index.capabilityMaskList[k] as Uint32Array;
    const { maybe } = this.set;
    const { firstWord, lastWord, ownMask } = this.window;
    for (let g = firstWord; g < lastWord; g++) {
      let bits = (c.actions[g] as number) & (ownMask[g - firstWord] as number) & (cap[g] as number);
      if (bits !== 0 && maybe !== 1 && maybe !== 0) bits &= maybe[g - this.offsetWord] as number;
      if (bits !== 0) return true;
    }
    return false;
  }

  private computeCapabilityBits(): number[] {
    const n = this.list.length;
    const out = new Array<number>(n);
    const caps = this.index.capabilityMaskList;
    const { maybe } = this.set;
    const { firstWord, lastWord, ownMask } = this.window;
    for (let i = 0; i < n; i++) {
      const actions = (this.list[i] as Candidate).actions;
      let found = 0;
      for (let g = firstWord; g < lastWord; g++) {
        let bits = (actions[g] as number) & (ownMask[g - firstWord] as number);
        if (bits !== 0 && maybe !== 1 && maybe !== 0) bits &= maybe[g - this.offsetWord] as number;
        if (bits === 0) continue;
        for (let k = 0; k < caps.length; k++)
          if (((caps[k] as Uint32Array)[g] as number) & bits) found |= 1 << k;
      }
      out[i] = found;
    }
    return out;
  }
}

const NO_CANDIDATES: readonly Candidate[] = Object.freeze([]);
/** Capability bits of one candidate that gives (bit 1): for `listOf` on a sole candidate. */
const ALL_BITS: readonly number[] = Object.freeze([1]);

/** What candidates are gathered for: a decision set within a window, and the statements that apply. */
interface CandidateQuery {
  set: TriSet;
  offsetWord: number;
  window: PrefixWindow;
  applies: (policy: Policy, statement: Statement) => boolean;
}

/** Adds to `out` (made when needed) the statements of `allows` that give an allowed action and apply. */
function gather(
  out: Candidate[] | undefined,
  allows: readonly AllowStatement[],
  { set, offsetWord, window, applies }: CandidateQuery,
): Candidate[] | undefined {
  if (set.maybe === 0) return out;
  let found = out;
  for (const c of allows) {
    if (!givesIn(c.actions, set, offsetWord, window) || !applies(c.policy, c.statement)) continue;
    // Most windows have one candidate: an array of one, not an empty one grown by `push`.
    if (found) found.push(c);
    else found = [c];
  }
  return found;
}

/** Whether an action set names an action of the window that `set` allows (maybe). */
function givesIn(
  actions: Uint32Array,
  set: TriSet,
  offsetWord: number,
  window: PrefixWindow,
): boolean {
  const { maybe } = set;
  if (maybe === 0) return false;
  const { firstWord, lastWord, ownMask } = window;
  for (let g = firstWord; g < lastWord; g++) {
    let bits = (actions[g] as number) & (ownMask[g - firstWord] as number);
    if (bits !== 0 && maybe !== 1) bits &= maybe[g - offsetWord] as number;
    if (bits !== 0) return true;
  }
  return false;
}

/** The policies of the candidates whose `bits` have `bit`, statements grouped per policy. */
export function grantListOf(
  candidates: readonly Candidate[],
  bits: readonly number[],
  bit: number,
): GrantList {
  const out: GrantingPolicy[] = [];
  for (let i = 0; i < candidates.length; i++) {
    if (((bits[i] as number) & bit) === 0) continue;
    const c = candidates[i] as Candidate;
    const last = out[out.length - 1];
    if (last && last.policy === c.policy) last.statements.push(c.statement);
    else out.push({ policy: c.policy, statements: [c.statement] });
  }
  return out.length === 0 ? NO_GRANTS : { policies: out };
}

/**
 * What a short list of statements that already apply (a resource policy's Allow statements
 * matching one class of callers) gives per capability, for any decision set over the
 * window: the statements' actions per capability are masked once, so each group of
 * principals only reads its set. Gives what `GrantCandidates.find(statements, set, …)
 * .granting(capability)` gives, with one list object per content.
 */
export class StatementGrants {
  /** Per statement, per capability (`CAPABILITIES` order): its actions of the capability in the window, or undefined. */
  private readonly masks: (Uint32Array | undefined)[][];
  private readonly lists = new Map<number | string, GrantList>();

  constructor(
    index: ActionIndex,
    private readonly statements: readonly AllowStatement[],
    window: PrefixWindow,
  ) {
    const { firstWord, lastWord, ownMask } = window;
    this.masks = statements.map((c) =>
      CAPABILITIES.map((cap) => {
        const capMask = index.capabilityMask(cap);
        const out = new Uint32Array(lastWord - firstWord);
        let any = 0;
        for (let g = firstWord; g < lastWord; g++) {
          const w = g - firstWord;
          out[w] = (c.actions[g] as number) & (ownMask[w] as number) & (capMask[g] as number);
          any |= out[w] as number;
        }
        return any === 0 ? undefined : out;
      }),
    );
  }

  /**
   * The statements that give an action of capability `k` (`CAPABILITIES` order) that `set`
   * (over the window's words) allows, maybe.
   */
  granting(k: number, set: TriSet): GrantList {
    const n = this.statements.length;
    if (set.maybe === 0 || n === 0) return NO_GRANTS;
    // Which statements give it, as a key: lists are shared by the groups and capabilities they serve.
    let key: number | string = n <= 30 ? 0 : "";
    for (let i = 0; i < n; i++) {
      if (!this.gives(i, k, set.maybe)) continue;
      if (typeof key === "number") key |= 1 << i;
      else key += `${i},`;
    }
    if (key === 0 || key === "") return NO_GRANTS;
    let list = this.lists.get(key);
    if (!list) {
      const out: GrantingPolicy[] = [];
      for (let i = 0; i < n; i++) {
        if (!this.gives(i, k, set.maybe)) continue;
        const c = this.statements[i] as AllowStatement;
        const last = out[out.length - 1];
        if (last && last.policy === c.policy) last.statements.push(c.statement);
        else out.push({ policy: c.policy, statements: [c.statement] });
      }
      list = { policies: out };
      this.lists.set(key, list);
    }
    return list;
  }

  /** Whether statement `i` gives an action of capability `k` in `maybe` (over the window's words). */
  private gives(i: number, k: number, maybe: Bits): boolean {
    const mask = this.masks[i]?.[k];
    if (!mask || maybe === 0) return false;
    if (maybe === 1) return true;
    for (let w = 0; w < mask.length; w++)
      if (((mask[w] as number) & (maybe[w] as number)) !== 0) return true;
    return false;
  }
}

/**
 * Whether a statement may apply to one of `literals`, computed once per statement.
 * `shared`: the answers for statements of policies that do not depend on the principal
 * (`PolicyIds.isDependent`), shared by every principal asked about these literals.
 */
export function appliesTo(
  literals: readonly string[],
  resolve: KeyResolver,
  shared?: { ids: PolicyIds; known: Map<Statement, boolean> },
): (policy: Policy, statement: Statement) => boolean {
  const own = new Map<Statement, boolean>();
  return (policy, statement) => {
    const known = shared && !shared.ids.isDependent(policy.statements) ? shared.known : own;
    let applies = known.get(statement);
    if (applies === undefined) {
      applies = literals.some(
        (l) => statementAppliesToResource(policy, statement, l, resolve).kind !== "false",
      );
      known.set(statement, applies);
    }
    return applies;
  };
}

/** Union of several lists, one entry per policy, statements in first-seen order. */
export function mergeGrantingPolicies(lists: readonly GrantList[]): GrantList {
  if (lists.length === 0) return NO_GRANTS;
  if (lists.length === 1) return lists[0] as GrantList;
  const byPolicy = new Map<Policy, GrantingPolicy>();
  for (const list of lists) {
    for (const g of list.policies) {
      const existing = byPolicy.get(g.policy);
      if (!existing) byPolicy.set(g.policy, { policy: g.policy, statements: [...g.statements] });
      else
        for (const s of g.statements)
          if (!existing.statements.includes(s)) existing.statements.push(s);
    }
  }
  return { policies: [...byPolicy.values()] };
}

export const NONE: readonly GrantSource[] = Object.freeze([]);
export const NO_GRANTS: GrantList = Object.freeze({ policies: [], named: NONE });
