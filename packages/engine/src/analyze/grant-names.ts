import { describeStatement, type Policy, type Statement } from "../policy/policy-types.ts";
import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { GrantSource } from "./analysis-types.ts";
import { inCanonicalOrder } from "./grant-order.ts";
import {
  type AllowStatement,
  allowStatements,
  type GrantList,
  grantListOf,
  NONE,
} from "./grant-sources.ts";
import type { PolicyIds } from "./policy-traits.ts";

/**
 * How granting policies are named in the rows ("granted by"): a policy as a reviewer finds it,
 * one shared object per policy and statements, and for each member of a policy set its own
 * policy of the content the representative's lists name. The lists themselves are found in
 * grant-sources.ts.
 */

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

  /** Joined lists by their head and tail (`join`). */
  private readonly joined = new WeakMap<
    readonly GrantSource[],
    WeakMap<readonly GrantSource[], readonly GrantSource[]>
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

  /**
   * `joinSources(head, tail)`, one array per pair of lists for the analysis: the members of a
   * class share it on every level and resource their lists meet on (the large account's
   * resource rows carried 1.9 M arrays, now 1.2 M).
   */
  join(head: readonly GrantSource[], tail: readonly GrantSource[]): readonly GrantSource[] {
    if (head.length === 0) return tail;
    if (tail.length === 0) return head;
    let byTail = this.joined.get(head);
    if (!byTail) {
      byTail = new WeakMap();
      this.joined.set(head, byTail);
    }
    let list = byTail.get(tail);
    if (!list) {
      list = joinSources(head, tail);
      byTail.set(tail, list);
    }
    return list;
  }

  /** The grant sources of a list, named as its policies are. */
  convert(list: GrantList): readonly GrantSource[] {
    if (list.policies.length === 0) return NONE;
    list.named ??= inCanonicalOrder(
      list.policies.map((g) => this.sourceOf(g.policy, g.statements)),
    );
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
      return inCanonicalOrder(
        list.policies.map((g) => this.sourceOf(map.get(g.policy) ?? g.policy, g.statements)),
      );
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
