import { CAPABILITIES, type Capability } from "@sightline/capabilities";
import { statementAppliesToResource } from "../authorize/evaluate-statement.ts";
import { describeStatement, type Policy, type Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { GrantSource } from "./analysis-types.ts";
import type { Bits } from "./bits.ts";
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
function grantListOf(
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

/** A policy as a reviewer finds it: its ARN or inline name, and how the principal has it. */
export function toGrantSource(policy: Policy, statements: readonly Statement[]): GrantSource {
  const sids = statements.map(describeStatement);
  if (policy.type !== "identity") {
    // Resource policies carry the resource ARN as ID (role trust policies `<role ARN>#trust`).
    const hash = policy.id.indexOf("#");
    return {
      policyType: "resource",
      policyArn: hash < 0 ? policy.id : policy.id.slice(0, hash),
      sids,
    };
  }
  const inline = policy.id.includes("#inline#");
  const via = policy.attachedVia;
  return {
    policyType: via ? (inline ? "group-inline" : "group-managed") : inline ? "inline" : "managed",
    ...(!inline && { policyArn: policy.id }),
    policyName: policy.name,
    ...(via && { group: via }),
    sids,
  };
}

/**
 * Names granting policies for each member of a policy set. Members share policy contents
 * with the set's representative, not names (an identical inline policy may be called
 * differently, a group policy reached through another group): each member's own policy
 * of the same content is named. Lives for one analysis.
 */
export class GrantNames {
  private readonly signatures = new WeakMap<PrincipalRecord, number>();
  private readonly signatureIds = new Map<string, number>();
  private readonly aligned = new WeakMap<
    PrincipalRecord,
    { rep: PrincipalRecord; map: Map<Policy, Policy> }
  >();
  private readonly convertedFor = new WeakMap<GrantList, Map<number, readonly GrantSource[]>>();
  private readonly eachFor = new WeakMap<
    readonly { sources: GrantList }[],
    Map<number, readonly (readonly GrantSource[])[]>
  >();
  private readonly sources = new WeakMap<Policy, Map<string, GrantSource>>();
  private readonly allows = new WeakMap<Policy, AllowStatement[]>();
  private readonly windowed = new WeakMap<Policy, Map<PrefixWindow, AllowStatement[]>>();
  /** Lists by their statements (`listOf`): a trie over the shared `AllowStatement`s. */
  private readonly lists: ListNode = {};
  private readonly classes = new WeakMap<
    readonly PrincipalRecord[],
    { rep: PrincipalRecord; value: NameClasses | undefined }
  >();

  private readonly applicability = new Map<
    string,
    { ids: PolicyIds; known: Map<Statement, boolean> }
  >();

  constructor(readonly ids: PolicyIds) {}

  /**
   * Statement applicability on literals that many principals are asked about (`*`, the
   * stand-in resources), shared for the analysis (see `appliesTo`).
   */
  sharedApplicability(literals: readonly string[]): {
    ids: PolicyIds;
    known: Map<Statement, boolean>;
  } {
    const key = literals.join("\n");
    let found = this.applicability.get(key);
    if (!found) {
      found = { ids: this.ids, known: new Map() };
      this.applicability.set(key, found);
    }
    return found;
  }

  /** Content and name of each identity policy, in order: equal signatures name alike. */
  private signatureOf(record: PrincipalRecord): number {
    let id = this.signatures.get(record);
    if (id === undefined) {
      const sig = record.identityPolicies
        .map((p) => {
          const name = p.id.includes("#inline#") ? `i:${p.name}` : `m:${p.id}`;
          return `${this.ids.idOf(p.statements)}:${name}:${p.attachedVia ?? ""}`;
        })
        .join("\n");
      id = this.signatureIds.get(sig);
      if (id === undefined) {
        id = this.signatureIds.size;
        this.signatureIds.set(sig, id);
      }
      this.signatures.set(record, id);
    }
    return id;
  }

  /**
   * The list of the candidates whose `bits` have `bit`: one list object per content, kept
   * for the analysis, so policy sets whose grants come from the same statements (a shared
   * managed policy) share the list and its names. Candidates must be the shared
   * `AllowStatement`s (`allowsIn`, `allowsOf`): the lists are found by their identity.
   */
  listOf(candidates: readonly AllowStatement[], bits: readonly number[], bit: number): GrantList {
    let node = this.lists;
    for (let i = 0; i < candidates.length; i++) {
      if (((bits[i] as number) & bit) === 0) continue;
      const c = candidates[i] as AllowStatement;
      node.next ??= new Map();
      let next = node.next.get(c);
      if (!next) {
        next = {};
        node.next.set(c, next);
      }
      node = next;
    }
    node.list ??= grantListOf(candidates, bits, bit);
    return node.list;
  }

  /** The Allow statements of a policy, listed once for the analysis. */
  allowsOf(index: ActionIndex, policy: Policy): readonly AllowStatement[] {
    let found = this.allows.get(policy);
    if (!found) {
      found = allowStatements(index, [policy]);
      this.allows.set(policy, found);
    }
    return found;
  }

  /**
   * Members grouped by how they name their policies, for rows that `rep`'s lists grant:
   * `undefined` when every member names them as `rep` does; otherwise each member's class
   * (0: as `rep`) and one member per class. Kept per members list (a group's is reused by
   * every resource the group is summarized on).
   */
  nameClasses(rep: PrincipalRecord, members: readonly PrincipalRecord[]): NameClasses | undefined {
    if (members.length === 1 && members[0] === rep) return undefined;
    const cached = this.classes.get(members);
    if (cached && cached.rep === rep) return cached.value;
    const repSignature = this.signatureOf(rep);
    let value: NameClasses | undefined;
    const classOf = new Map<number, number>();
    for (let i = 0; i < members.length; i++) {
      const m = members[i] as PrincipalRecord;
      const signature = this.signatureOf(m);
      if (signature === repSignature) continue;
      value ??= { classOf: new Uint32Array(members.length), members: [rep], named: new Map() };
      let c = classOf.get(signature);
      if (c === undefined) {
        c = value.members.length;
        value.members.push(m);
        classOf.set(signature, c);
      }
      value.classOf[i] = c;
    }
    this.classes.set(members, { rep, value });
    return value;
  }

  /** `rep`'s list named as each class of `classes` names it (index: class). */
  sourcesByClass(
    rep: PrincipalRecord,
    classes: NameClasses,
    list: GrantList,
  ): readonly (readonly GrantSource[])[] {
    let out = classes.named.get(list);
    if (!out) {
      out = classes.members.map((m, c) =>
        c === 0 ? this.convert(list) : this.sourcesFor(rep, m, list, false),
      );
      classes.named.set(list, out);
    }
    return out;
  }

  /** The Allow statements of a policy that name an action of `window` (listed once per window for the analysis). */
  allowsIn(
    index: ActionIndex,
    policy: Policy,
    window: PrefixWindow,
  ): readonly AllowStatement[] | undefined {
    return this.byWindow(index, policy).get(window);
  }

  private byWindow(index: ActionIndex, policy: Policy): Map<PrefixWindow, AllowStatement[]> {
    let found = this.windowed.get(policy);
    if (!found) {
      found = new Map();
      for (const a of this.allowsOf(index, policy))
        for (const window of index.windowsOf(a.actions)) {
          const list = found.get(window);
          if (list) list.push(a);
          else found.set(window, [a]);
        }
      this.windowed.set(policy, found);
    }
    return found;
  }

  /** Whether `member` names its policies as `rep` does (then `rep`'s lists convert as they are). */
  namesAlike(rep: PrincipalRecord, member: PrincipalRecord): boolean {
    return rep === member || this.signatureOf(rep) === this.signatureOf(member);
  }

  /** The grant sources of a list, named as its policies are. */
  convert(list: GrantList): readonly GrantSource[] {
    if (list.policies.length === 0) return NONE;
    list.named ??= list.policies.map((g) => this.sourceOf(g.policy, g.statements));
    return list.named;
  }

  /**
   * The sources of each of `grants` (`rep`'s) as `member` names them, in order: one array
   * per naming of the members, kept per `grants` list, so each row reads its sources by index.
   */
  sourcesOfEach(
    rep: PrincipalRecord,
    member: PrincipalRecord,
    grants: readonly { sources: GrantList }[],
  ): readonly (readonly GrantSource[])[] {
    return this.perNaming(this.eachFor, grants, member, () => {
      const alike = this.namesAlike(rep, member);
      return grants.map((g) => this.sourcesFor(rep, member, g.sources, alike));
    });
  }

  /** `make()` for `key` and the way `member` names its policies, kept in `cache`. */
  private perNaming<K extends object, V>(
    cache: WeakMap<K, Map<number, V>>,
    key: K,
    member: PrincipalRecord,
    make: () => V,
  ): V {
    let bySignature = cache.get(key);
    if (!bySignature) {
      bySignature = new Map();
      cache.set(key, bySignature);
    }
    const signature = this.signatureOf(member);
    let out = bySignature.get(signature);
    if (out === undefined) {
      out = make();
      bySignature.set(signature, out);
    }
    return out;
  }

  /** `rep`'s granting policies (and any resource policy) as `member`'s grant sources. */
  sourcesFor(
    rep: PrincipalRecord,
    member: PrincipalRecord,
    list: GrantList,
    alike?: boolean,
  ): readonly GrantSource[] {
    if (list.policies.length === 0) return NONE;
    if (alike ?? this.namesAlike(rep, member)) return this.convert(list);
    return this.perNaming(this.convertedFor, list, member, () => {
      const map = this.align(rep, member);
      return list.policies.map((g) => this.sourceOf(map.get(g.policy) ?? g.policy, g.statements));
    });
  }

  /** One object per policy and statements, shared by every row it grants. */
  private sourceOf(policy: Policy, statements: readonly Statement[]): GrantSource {
    let byStatements = this.sources.get(policy);
    if (!byStatements) {
      byStatements = new Map();
      this.sources.set(policy, byStatements);
    }
    const key =
      statements.length === 1
        ? String(statements[0]?.index)
        : statements.map((s) => s.index).join(",");
    let source = byStatements.get(key);
    if (!source) {
      source = toGrantSource(policy, statements);
      byStatements.set(key, source);
    }
    return source;
  }

  /** `rep`'s identity policies → `member`'s of the same content (same name first). */
  private align(rep: PrincipalRecord, member: PrincipalRecord): Map<Policy, Policy> {
    const cached = this.aligned.get(member);
    if (cached && cached.rep === rep) return cached.map;
    const map = new Map<Policy, Policy>();
    const free = new Set(member.identityPolicies);
    const label = (p: Policy) =>
      `${p.id.includes("#inline#") ? `i:${p.name}` : `m:${p.id}`}:${p.attachedVia ?? ""}`;
    const pick = (p: Policy, sameName: boolean) => {
      const id = this.ids.idOf(p.statements);
      for (const q of free) {
        if (this.ids.idOf(q.statements) !== id || (sameName && label(q) !== label(p))) continue;
        free.delete(q);
        map.set(p, q);
        return;
      }
    };
    for (const p of rep.identityPolicies) pick(p, true);
    for (const p of rep.identityPolicies) if (!map.has(p)) pick(p, false);
    this.aligned.set(member, { rep, map });
    return map;
  }
}

/** `head`'s sources (a resource policy's), then `tail`'s (the caller's identity policies'). */
export function joinSources(
  head: readonly GrantSource[],
  tail: readonly GrantSource[],
): readonly GrantSource[] {
  if (head.length === 0) return tail;
  if (tail.length === 0) return head;
  if (head.length === 1 && tail.length === 1)
    return [head[0] as GrantSource, tail[0] as GrantSource];
  return head.concat(tail);
}

/**
 * How a group's members name what grants them through their identity policies, per level
 * (kept with the group's levels in resource summaries).
 */
export interface GroupNaming {
  readonly members: readonly PrincipalRecord[];
  /** How many ways the members name their policies (class 0: as the representative). */
  readonly classes: number;
  /** Per member (by position), its class; undefined when all name as the representative. */
  readonly classOf: Uint32Array | undefined;
  /** Per level and class (`level * classes + class`), the identity policies' sources. */
  readonly identity: readonly (readonly GrantSource[])[];
}

interface ListNode {
  list?: GrantList;
  next?: Map<AllowStatement, ListNode>;
}

/** Members grouped by how they name their policies (`GrantNames.nameClasses`). */
export interface NameClasses {
  /** Per member (by position), its class: an index into `members`. */
  readonly classOf: Uint32Array;
  /** One member per class; the first is the representative. */
  readonly members: PrincipalRecord[];
  /** Per granting list, its sources as each class names them (`sourcesByClass`). */
  readonly named: Map<GrantList, readonly (readonly GrantSource[])[]>;
}

const NONE: readonly GrantSource[] = Object.freeze([]);
const NO_GRANTS: GrantList = Object.freeze({ policies: [], named: NONE });
