import type { Capability } from "@sightline/capabilities";
import { statementAppliesToResource } from "../authorize/evaluate-statement.ts";
import { describeStatement, type Policy, type Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import type { GrantSource } from "./analysis-types.ts";
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

/** An Allow statement that gives some allowed action of a window (`hit`: window-relative words). */
export interface GrantCandidate {
  policy: Policy;
  statement: Statement;
  hit: Uint32Array;
}

/**
 * The Allow statements of `policies` that give actions `set` allows within the window and
 * that `applies` (to the resource, and for resource policies to the caller). `offsetWord`
 * is the first word `set` covers (0 for a full-catalogue set).
 */
export function grantCandidates(
  index: ActionIndex,
  policies: readonly Policy[],
  set: TriSet,
  offsetWord: number,
  window: PrefixWindow,
  applies: (policy: Policy, statement: Statement) => boolean,
): GrantCandidate[] {
  const out: GrantCandidate[] = [];
  const { maybe } = set;
  if (maybe === 0) return out;
  const width = window.lastWord - window.firstWord;
  for (const policy of policies) {
    for (const statement of policy.statements) {
      if (statement.effect !== "Allow" || statement.invalid) continue;
      const actions = index.actionSet(statement);
      let hit: Uint32Array | undefined;
      for (let w = 0; w < width; w++) {
        const g = window.firstWord + w;
        let bits = (actions[g] as number) & (window.ownMask[w] as number);
        if (bits !== 0 && maybe !== 1) bits &= maybe[g - offsetWord] as number;
        if (bits === 0) continue;
        hit ??= new Uint32Array(width);
        hit[w] = bits;
      }
      if (hit && applies(policy, statement)) out.push({ policy, statement, hit });
    }
  }
  return out;
}

/** Whether a statement may apply to one of `literals`, computed once per statement. */
export function appliesTo(
  literals: readonly string[],
  resolve: KeyResolver,
): (policy: Policy, statement: Statement) => boolean {
  const known = new Map<Statement, boolean>();
  return (policy, statement) => {
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
  private readonly signatures = new WeakMap<PrincipalRecord, string>();
  private readonly aligned = new WeakMap<
    PrincipalRecord,
    { rep: PrincipalRecord; map: Map<Policy, Policy> }
  >();
  private readonly converted = new WeakMap<readonly GrantingPolicy[], Map<string, GrantSource[]>>();

  private readonly interned = new Map<string, readonly GrantingPolicy[]>();
  private readonly policyUids = new WeakMap<Policy, number>();
  private nextUid = 0;

  constructor(
    private readonly ids: PolicyIds,
    private readonly index: ActionIndex,
  ) {}

  /**
   * The candidates that give an action of `capability`, grouped by policy (in policy
   * order). Equal lists are one object, so that rows share their conversions.
   */
  granting(
    candidates: readonly GrantCandidate[],
    capability: Capability,
    window: PrefixWindow,
  ): readonly GrantingPolicy[] {
    if (candidates.length === 0) return NO_POLICIES;
    const cap = this.index.capabilityMask(capability);
    const out: GrantingPolicy[] = [];
    for (const c of candidates) {
      let gives = false;
      for (let w = 0; w < c.hit.length && !gives; w++)
        gives = ((c.hit[w] as number) & (cap[window.firstWord + w] as number)) !== 0;
      if (!gives) continue;
      const last = out[out.length - 1];
      if (last && last.policy === c.policy) last.statements.push(c.statement);
      else out.push({ policy: c.policy, statements: [c.statement] });
    }
    return this.intern(out);
  }

  /** Union of several lists, one entry per policy, statements in first-seen order. */
  merge(lists: readonly (readonly GrantingPolicy[])[]): readonly GrantingPolicy[] {
    if (lists.length === 1) return lists[0] as readonly GrantingPolicy[];
    const byPolicy = new Map<Policy, GrantingPolicy>();
    for (const list of lists) {
      for (const g of list) {
        const existing = byPolicy.get(g.policy);
        if (!existing) byPolicy.set(g.policy, { policy: g.policy, statements: [...g.statements] });
        else
          for (const s of g.statements)
            if (!existing.statements.includes(s)) existing.statements.push(s);
      }
    }
    return this.intern([...byPolicy.values()]);
  }

  private intern(list: GrantingPolicy[]): readonly GrantingPolicy[] {
    if (list.length === 0) return NO_POLICIES;
    const key = list
      .map((g) => {
        let uid = this.policyUids.get(g.policy);
        if (uid === undefined) {
          uid = this.nextUid++;
          this.policyUids.set(g.policy, uid);
        }
        return `${uid}:${g.statements.map((s) => s.index).join(",")}`;
      })
      .join("|");
    let found = this.interned.get(key);
    if (!found) {
      found = list;
      this.interned.set(key, found);
    }
    return found;
  }

  /** Content and name of each identity policy, in order: equal signatures name alike. */
  private signatureOf(record: PrincipalRecord): string {
    let sig = this.signatures.get(record);
    if (sig === undefined) {
      sig = record.identityPolicies
        .map((p) => {
          const name = p.id.includes("#inline#") ? `i:${p.name}` : `m:${p.id}`;
          return `${this.ids.idOf(p.statements)}:${name}:${p.attachedVia ?? ""}`;
        })
        .join("\n");
      this.signatures.set(record, sig);
    }
    return sig;
  }

  /** `rep`'s granting policies (and any resource policy) as `member`'s grant sources. */
  sourcesFor(
    rep: PrincipalRecord,
    member: PrincipalRecord,
    policies: readonly GrantingPolicy[],
  ): readonly GrantSource[] {
    if (policies.length === 0) return NONE;
    let bySignature = this.converted.get(policies);
    if (!bySignature) {
      bySignature = new Map();
      this.converted.set(policies, bySignature);
    }
    const sig = member === rep ? this.signatureOf(rep) : this.signatureOf(member);
    let sources = bySignature.get(sig);
    if (!sources) {
      const map =
        member === rep || sig === this.signatureOf(rep) ? undefined : this.align(rep, member);
      sources = policies.map((g) => toGrantSource(map?.get(g.policy) ?? g.policy, g.statements));
      bySignature.set(sig, sources);
    }
    return sources;
  }

  /** Resource policies only: named as they are. */
  resourceSources(policies: readonly GrantingPolicy[]): readonly GrantSource[] {
    if (policies.length === 0) return NONE;
    let bySignature = this.converted.get(policies);
    if (!bySignature) {
      bySignature = new Map();
      this.converted.set(policies, bySignature);
    }
    let sources = bySignature.get("");
    if (!sources) {
      sources = policies.map((g) => toGrantSource(g.policy, g.statements));
      bySignature.set("", sources);
    }
    return sources;
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

const NONE: readonly GrantSource[] = Object.freeze([]);
const NO_POLICIES: readonly GrantingPolicy[] = Object.freeze([]);
