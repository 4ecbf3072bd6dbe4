import type { AzureOperationInfo, Capability } from "@sightline/capabilities";
import type {
  AccountAnalysis,
  GrantSource,
  PrincipalAccessSummary,
  PrincipalRow,
  PrincipalType,
  ResourceAccessSummary,
  ResourceRow,
  ResourceType,
} from "../analyze/analysis-types.ts";
import type { AccessLevel } from "../analyze/decision-at.ts";
import { type Issue, issueAt } from "../issues.ts";
import type { CompiledGlob } from "../policy/glob.ts";
import { conditionOutcome, conditionPassingBits } from "./azure-condition.ts";
import type {
  AzureAssignment,
  AzureDeny,
  AzureModel,
  AzurePrincipal,
  AzureRole,
  PermissionBlock,
} from "./azure-model.ts";
import {
  AzureOperationIndex,
  type CapabilityPair,
  compileOperationPattern,
  matchOperation,
  sharedAzureOperationIndex,
} from "./azure-operations.ts";
import { ancestorsOrSelf, normalizeScope, providerOfResourceId } from "./azure-scope.ts";
import type { AzureSnapshot } from "./azure-snapshot.ts";
import { readAzureSnapshot } from "./read-azure-snapshot.ts";

export interface AzureAnalyzeOptions {
  /**
   * The operation catalogue (default: `listAzureOperations()` of `@sightline/capabilities`):
   * which operations exist, their provider, plane and capabilities.
   */
  operations?: readonly AzureOperationInfo[];
}

const AUTHORIZATION = "microsoft.authorization";
const RESOURCES_SERVICE = "Microsoft.Resources";

/** Allowed (2), conditional (1), none (0) per (provider, capability) pair, with the bits behind it. */
interface Evaluation {
  sure: Uint32Array;
  any: Uint32Array;
  levels: Uint8Array;
  /** The pairs with a level above 0, ascending. */
  held: Int32Array;
  /** Some deny assignment applies: an assignment's operations may be cut. */
  denied: boolean;
  /** The held pairs by provider index (computed on first use). */
  heldByProvider?: Map<number, number[]>;
  /** The IAM-admin operations held, and whether any is held unconditionally (computed on first use). */
  admin?: { held: number[]; sure: boolean };
}

/** Principals that receive exactly the same assignments and deny assignments, evaluated once. */
interface Signature {
  key: string;
  /** Assignments reaching the members, and whether each is received through a group. */
  assignments: { a: AzureAssignment; viaGroup: boolean }[];
  denies: AzureDeny[];
  members: AzurePrincipal[];
  /** The members' IDs and types side by side, as the resource rows read them (one per row). */
  memberIds: string[];
  memberTypes: PrincipalType[];
  /** Its assignments' and denies' scopes below the subscription: elsewhere it inherits the subscription's access. */
  below: Set<string>;
  /** Evaluations by scope. */
  evals: Map<string, ScopeEvaluation>;
}

/** A signature's access at one scope, with the assignments that apply there. */
interface ScopeEvaluation {
  ev: Evaluation;
  key: string;
  assignments: { a: AzureAssignment; viaGroup: boolean }[];
  denies: AzureDeny[];
  /** Per applicable assignment: the pairs it contributes to (computed on first use). */
  flags?: Uint8Array[];
  /** Resource rows by provider (computed on first use). */
  templates?: Map<number | undefined, ResourceRowTemplate[]>;
}

interface ResourceRowTemplate {
  service: string;
  capability: Capability;
  conditional: boolean;
  grantedBy: readonly GrantSource[];
}

/** A signature holding something on a resource row's scope, with its rows there. */
interface Holder {
  s: Signature;
  rows: readonly ResourceRowTemplate[];
}

interface ResourceContext {
  /** Signatures with an assignment at or above the subscription. */
  fromAbove: Set<Signature>;
  /** Below the subscription: the signatures with an assignment, or a deny, at each scope. */
  assignedAt: Map<string, Set<Signature>>;
  deniedAt: Map<string, Set<Signature>>;
  /** The holders that inherit the subscription's access unchanged, per provider. */
  inheritedByProvider: Map<string, Holder[]>;
}

const EMPTY: readonly string[] = Object.freeze([]);
/**
 * Follows a scope in a principal row's `exceptResources` when the capability is cut at that
 * scope only (a deny assignment with `doNotApplyToChildScopes`), not in the scopes below it.
 */
const THIS_SCOPE_ONLY = " (this scope only)";
const EMPTY_PAIRS: readonly number[] = Object.freeze([]);

function orInto(target: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < target.length; w++) target[w] = (target[w] as number) | (bits[w] as number);
}

/**
 * Azure RBAC analysis of one subscription: who holds which capability where, as the same rows
 * as `analyzeAccount`. Pure; malformed input throws `AzureSnapshotError` naming the field.
 */
export function analyzeAzureSubscription(
  snapshot: AzureSnapshot,
  options: AzureAnalyzeOptions = {},
): AccountAnalysis {
  const model = readAzureSnapshot(snapshot);
  const index = options.operations
    ? new AzureOperationIndex(options.operations)
    : sharedAzureOperationIndex();
  return new AzureAnalysis(model, index).result();
}

export class AzureAnalysis {
  private readonly words: number;
  private readonly roleBits = new Map<string, { sure: Uint32Array; any: Uint32Array }>();
  private readonly denyBits = new Map<AzureDeny, { sure: Uint32Array; any: Uint32Array }>();
  private readonly evaluations = new Map<string, Evaluation>();
  private readonly grantPairs = new Map<Evaluation, Map<number, Uint8Array>>();
  private readonly ancestorSets = new Map<string, Set<string>>();
  /** One frozen GrantSource per assignment, received directly or through a group. */
  private readonly directSources: GrantSource[] = [];
  private readonly groupSources: GrantSource[] = [];
  private readonly signatures: Signature[] = [];
  /** Resource rows by applicable assignments, evaluation and provider (see `templates`). */
  private readonly sharedTemplates = new Map<string, ResourceRowTemplate[]>();
  private readonly signatureOf = new Map<string, Signature>();
  private readonly assignmentsAt = new Map<string, AzureAssignment[]>();
  private readonly signaturesOfAssignment = new Map<AzureAssignment, Signature[]>();
  private readonly issues: Issue[];
  /**
   * The IAM-admin operations: administer-resource on Microsoft.Authorization that changes who
   * may do what (`…/write`, `…/delete`: role assignments and definitions, policy, locks) and
   * `elevateAccess/action`; cancelling a PIM request does not make an admin.
   */
  private readonly adminOps: number[];
  /** Microsoft.Authorization as the catalogue spells it. */
  private readonly authorization: string | undefined;
  private layers = 0;

  constructor(
    private readonly model: AzureModel,
    private readonly index: AzureOperationIndex,
  ) {
    this.words = index.words;
    this.issues = [...model.issues];
    const auth = index.providerIndexOf(AUTHORIZATION);
    this.authorization = auth === undefined ? undefined : index.providers[auth];
    this.adminOps = index.operations.flatMap((op, i) =>
      op.provider.toLowerCase() === AUTHORIZATION &&
      !op.isDataAction &&
      op.capabilities.includes("administer-resource") &&
      /\/(write|delete)$|^microsoft\.authorization\/elevateaccess\/action$/i.test(op.operation)
        ? [i]
        : [],
    );
    const byPrincipal = new Map<string, AzureAssignment[]>();
    for (const a of model.assignments) {
      pushTo(byPrincipal, a.principal, a);
      pushTo(this.assignmentsAt, a.scopeKey, a);
    }
    const checked = new Set<AzureRole>();
    for (const a of model.assignments) {
      if (checked.has(a.role)) continue;
      checked.add(a.role);
      this.checkOperations(a.role.blocks);
    }
    for (const d of model.denies) this.checkOperations(d.blocks);
    for (const p of model.principals.values()) {
      const ids = [p.key, ...p.groups];
      const assignments = ids.flatMap((id) =>
        (byPrincipal.get(id) ?? []).map((a) => ({ a, viaGroup: id !== p.key })),
      );
      assignments.sort((x, y) => x.a.index - y.a.index);
      const denies = model.denies.filter((d) => denyApplies(d, ids));
      const key = `${assignments.map((x) => `${x.a.index}${x.viaGroup ? "g" : "d"}`).join(",")}|${denies.map((d) => d.index).join(",")}`;
      let s = this.signatureOf.get(key);
      if (!s) {
        const sub = `${model.subscriptionScope}/`;
        const below = new Set<string>();
        for (const { a } of assignments) if (a.scopeKey.startsWith(sub)) below.add(a.scopeKey);
        for (const d of denies) if (d.scopeKey.startsWith(sub)) below.add(d.scopeKey);
        s = {
          key,
          assignments,
          denies,
          members: [],
          memberIds: [],
          memberTypes: [],
          below,
          evals: new Map(),
        };
        this.signatureOf.set(key, s);
        this.signatures.push(s);
        for (const { a } of assignments) pushTo(this.signaturesOfAssignment, a, s);
      }
      s.members.push(p);
      s.memberIds.push(p.id);
      s.memberTypes.push(p.type);
    }
  }

  /** Unknown operation names and operations named in the wrong plane, once per role. */
  private checkOperations(blocks: readonly PermissionBlock[]): void {
    for (const b of blocks) {
      const check = (patterns: readonly string[], field: string, data: boolean) =>
        patterns.forEach((pattern, k) => {
          if (pattern.includes("*")) return;
          const i = this.index.indexOf(pattern);
          const op = i === undefined ? undefined : this.index.operations[i];
          if (!op)
            this.issues.push(
              issueAt(
                `${b.path}.${field}[${k}]`,
                `'${pattern}' is not in the Azure operation catalogue: it appears in no summary row`,
                "warning",
              ),
            );
          else if (op.isDataAction !== data)
            this.issues.push(
              issueAt(
                `${b.path}.${field}[${k}]`,
                data
                  ? `'${pattern}' is a control-plane action: dataActions do not grant it`
                  : `'${pattern}' is a data action: actions do not grant it (only dataActions do)`,
                "warning",
              ),
            );
        });
      check(b.actions, "actions", false);
      check(b.dataActions, "dataActions", true);
    }
  }

  /** One permission block's operations: its actions less its notActions, its data actions less its notDataActions. */
  private blockBits(b: PermissionBlock): Uint32Array {
    const union = (patterns: readonly string[], data: boolean) => {
      const out = new Uint32Array(this.words);
      for (const p of patterns) orInto(out, this.index.expand(p, data));
      return out;
    };
    const control = union(b.actions, false);
    const notControl = union(b.notActions, false);
    const data = union(b.dataActions, true);
    const notData = union(b.notDataActions, true);
    const out = new Uint32Array(this.words);
    for (let w = 0; w < this.words; w++)
      out[w] =
        ((control[w] as number) & ~(notControl[w] as number)) |
        ((data[w] as number) & ~(notData[w] as number));
    return out;
  }

  /**
   * A role's operations, sure (blocks without condition, under the assignment's condition only
   * the operations it passes whatever the request) and any; `notActions` subtract inside their
   * own block only. `condition`: true when a condition may refuse every operation.
   */
  private bitsOf(
    blocks: readonly PermissionBlock[],
    key: string,
    condition: boolean | Uint32Array,
  ) {
    let bits = this.roleBits.get(key);
    if (!bits) {
      bits = { sure: new Uint32Array(this.words), any: new Uint32Array(this.words) };
      for (const b of blocks) {
        const block = this.blockBits(b);
        orInto(bits.any, block);
        if (b.condition || condition === true) continue;
        if (condition)
          for (let w = 0; w < this.words; w++)
            block[w] = (block[w] as number) & (condition[w] as number);
        orInto(bits.sure, block);
      }
      this.roleBits.set(key, bits);
    }
    return bits;
  }

  /** Per distinct condition text: a number for the keys, and the operations it surely passes. */
  private readonly conditions = new Map<string, { id: number; passes: Uint32Array }>();
  private conditionOf(a: AzureAssignment & { condition: string }) {
    let c = this.conditions.get(a.condition);
    if (!c) {
      // An action test matches operations of both planes; a condition not read passes none surely.
      const matching = (pattern: string) => {
        const control = this.index.expand(pattern, false);
        const data = this.index.expand(pattern, true);
        return control.map((w, i) => w | (data[i] as number));
      };
      c = {
        id: this.conditions.size,
        passes: a.conditionNode
          ? conditionPassingBits(a.conditionNode, matching, this.words)
          : new Uint32Array(this.words),
      };
      this.conditions.set(a.condition, c);
    }
    return c;
  }

  /** What tells an assignment's bits apart: its role, and its condition if any. */
  private roleKey(a: AzureAssignment): string {
    return a.condition === undefined
      ? `${a.role.index}`
      : `${a.role.index}c${this.conditionOf(a as AzureAssignment & { condition: string }).id}`;
  }

  private assignmentBits(a: AzureAssignment) {
    if (a.condition === undefined) return this.bitsOf(a.role.blocks, this.roleKey(a), false);
    const c = this.conditionOf(a as AzureAssignment & { condition: string });
    return this.bitsOf(a.role.blocks, this.roleKey(a), c.passes);
  }

  private ancestors(scope: string): Set<string> {
    let set = this.ancestorSets.get(scope);
    if (!set) {
      set = new Set(ancestorsOrSelf(scope, this.model.tree));
      this.ancestorSets.set(scope, set);
    }
    return set;
  }

  private applicable(s: Signature, scope: string) {
    const above = this.ancestors(scope);
    const assignments = s.assignments.filter((x) => above.has(x.a.scopeKey));
    const denies = s.denies.filter(
      (d) => d.scopeKey === scope || (!d.ownScopeOnly && above.has(d.scopeKey)),
    );
    return { assignments, denies };
  }

  private evaluationKey(
    assignments: readonly { a: AzureAssignment }[],
    denies: readonly AzureDeny[],
  ) {
    const roles = [...new Set(assignments.map(({ a }) => this.roleKey(a)))].sort();
    return `${roles.join(",")}|${denies.map((d) => d.index).join(",")}`;
  }

  /** The access of a signature at a scope: the union of its assignments at and above, less what applicable denies remove. */
  private evaluate(s: Signature, scope: string): ScopeEvaluation {
    const cached = s.evals.get(scope);
    if (cached) return cached;
    const from = this.inheritsFrom(s, scope);
    if (from !== undefined) return this.evaluate(s, from);
    const { assignments, denies } = this.applicable(s, scope);
    const result = this.evaluationOf(assignments, denies);
    s.evals.set(scope, result);
    return result;
  }

  /**
   * The access of the children of a scope that have no assignment or deny of their own: the
   * scope's, less its denies that apply to their own scope only (`doNotApplyToChildScopes`).
   */
  private evaluateBelow(scope: string, at: ScopeEvaluation): ScopeEvaluation {
    const own = (d: AzureDeny) => d.ownScopeOnly && d.scopeKey === scope;
    if (!at.denies.some(own)) return at;
    return this.evaluationOf(
      at.assignments,
      at.denies.filter((d) => !own(d)),
    );
  }

  private evaluationOf(
    assignments: { a: AzureAssignment; viaGroup: boolean }[],
    denies: AzureDeny[],
  ): ScopeEvaluation {
    const key = this.evaluationKey(assignments, denies);
    let ev = this.evaluations.get(key);
    if (!ev) {
      this.layers++;
      const sure = new Uint32Array(this.words);
      const any = new Uint32Array(this.words);
      for (const { a } of assignments) {
        const bits = this.assignmentBits(a);
        orInto(sure, bits.sure);
        orInto(any, bits.any);
      }
      for (const d of denies) {
        let bits = this.denyBits.get(d);
        if (!bits) {
          bits = this.bitsOf(
            d.blocks,
            `deny${d.index}${d.condition ? "c" : ""}`,
            d.condition !== undefined,
          );
          this.denyBits.set(d, bits);
        }
        for (let w = 0; w < this.words; w++) {
          // A sure deny removes the operation; a conditional one leaves it conditional at most.
          any[w] = (any[w] as number) & ~(bits.sure[w] as number);
          sure[w] = (sure[w] as number) & ~(bits.any[w] as number);
        }
      }
      const levels = this.levelsOf(sure, any);
      const held: number[] = [];
      for (let k = 0; k < levels.length; k++) if (levels[k]) held.push(k);
      ev = { sure, any, levels, held: Int32Array.from(held), denied: denies.length > 0 };
      this.evaluations.set(key, ev);
    }
    return { ev, key, assignments, denies };
  }

  /**
   * A scope below the subscription where the signature has no assignment or deny of its own
   * has the access of the nearest scope above that has one (or of the subscription): the
   * same assignments and denies apply, unless a deny there applies to its own scope only.
   */
  private inheritsFrom(s: Signature, scope: string): string | undefined {
    const sub = this.model.subscriptionScope;
    if (scope === sub || s.below.has(scope) || !scope.startsWith(`${sub}/`)) return undefined;
    let nearest = sub;
    // Ancestors come root first: the last one of the signature's is the nearest.
    for (const above of this.ancestors(scope)) if (s.below.has(above)) nearest = above;
    if (s.denies.some((d) => d.ownScopeOnly && d.scopeKey === nearest)) return undefined;
    return nearest;
  }

  private levelsOf(sure: Uint32Array, any: Uint32Array): Uint8Array {
    return this.index.pairLevels(sure, any);
  }

  /** The pairs to which one assignment contributes under an evaluation. */
  private pairsGrantedBy(a: AzureAssignment, ev: Evaluation): Uint8Array {
    // Without a deny, everything the assignment grants is in the evaluation.
    if (!ev.denied) return this.pairsOfAssignment(a);
    let byRole = this.grantPairs.get(ev);
    if (!byRole) {
      byRole = new Map();
      this.grantPairs.set(ev, byRole);
    }
    const key = a.condition ? -1 - a.role.index : a.role.index;
    let flags = byRole.get(key);
    if (!flags) {
      const bits = this.assignmentBits(a).any;
      const both = new Uint32Array(this.words);
      let cut = false;
      for (let w = 0; w < this.words; w++) {
        both[w] = (bits[w] as number) & (ev.any[w] as number);
        if (both[w] !== bits[w]) cut = true;
      }
      // A deny that removes none of the assignment's operations leaves its pairs as they are.
      flags = cut ? this.levelsOf(both, both) : this.pairsOfAssignment(a);
      byRole.set(key, flags);
    }
    return flags;
  }

  private readonly rolePairs = new Map<string, Uint8Array>();
  private pairsOfAssignment(a: AzureAssignment): Uint8Array {
    const key = `${a.role.index}${a.condition ? "c" : ""}`;
    let flags = this.rolePairs.get(key);
    if (!flags) {
      const bits = this.assignmentBits(a).any;
      flags = this.levelsOf(bits, bits);
      this.rolePairs.set(key, flags);
    }
    return flags;
  }

  private sourceOf(a: AzureAssignment, viaGroup: boolean): GrantSource {
    const cache = viaGroup ? this.groupSources : this.directSources;
    let source = cache[a.index];
    if (!source) {
      source = Object.freeze({
        policyType: "role-assignment",
        policyArn: a.id,
        policyName: a.role.roleName,
        ...(viaGroup ? { group: this.model.principals.get(a.principal)?.id ?? a.principal } : {}),
      }) as GrantSource;
      cache[a.index] = source;
    }
    return source;
  }

  private grantedBy(e: ScopeEvaluation, pair: number): GrantSource[] {
    e.flags ??= e.assignments.map(({ a }) => this.pairsGrantedBy(a, e.ev));
    const out: GrantSource[] = [];
    e.assignments.forEach(({ a, viaGroup }, j) => {
      if (e.flags?.[j]?.[pair]) out.push(this.sourceOf(a, viaGroup));
    });
    return out;
  }

  /** At a resource only its own provider's operations and Microsoft.Authorization's count; elsewhere all. */
  private providerFilter(scope: string): ((pair: number) => boolean) | undefined {
    const info = this.model.scopes.get(scope);
    if (info ? info.kind !== "resource" : !scope.includes("/providers/")) return undefined;
    const provider = providerOfResourceId(info?.scope ?? scope);
    const own = provider === undefined ? undefined : this.index.providerIndexOf(provider);
    const auth = this.index.providerIndexOf(AUTHORIZATION);
    return (pair) => {
      const p = this.index.pairs[pair]?.providerIndex;
      return p === own || p === auth;
    };
  }

  private displayScope(scope: string): string {
    return this.model.scopes.get(scope)?.scope ?? scope;
  }

  /** The scopes at which a signature's access can differ: the subscription, its assignments' and its denies' scopes below it. */
  private scopesOf(s: Signature): string[] {
    const sub = this.model.subscriptionScope;
    const set = new Set<string>([sub]);
    for (const { a } of s.assignments) if (a.scopeKey.startsWith(`${sub}/`)) set.add(a.scopeKey);
    for (const d of s.denies) if (d.scopeKey.startsWith(`${sub}/`)) set.add(d.scopeKey);
    return [...set].sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
  }

  /**
   * The summary rows of one signature, shared by its members. A row at a scope holds for the
   * scope and everything below it, less its `exceptResources`: a scope named alone is cut with
   * its subtree; one followed by THIS_SCOPE_ONLY is cut at that scope only (a deny with
   * `doNotApplyToChildScopes` there), its children keeping the row's access.
   */
  private signatureRows(s: Signature) {
    const rows: Omit<PrincipalAccessSummary, "principalArn" | "principalName" | "principalType">[] =
      [];
    if (s.assignments.length === 0) return rows;
    const scopes = this.scopesOf(s);
    const evals = scopes.map((scope) => {
      const e = this.evaluate(s, scope);
      // What the scope's children without assignments or denies of their own hold: the same,
      // unless a deny here applies to its own scope only. Never less than at the scope itself.
      const below = this.evaluateBelow(scope, e);
      return { scope, e, ev: e.ev, below, filter: this.providerFilter(scope) };
    });
    const sub = this.model.subscriptionScope;
    const display = (scope: string) =>
      scope === sub ? `/subscriptions/${this.model.subscriptionId}` : this.displayScope(scope);
    for (const [t, here] of evals.entries()) {
      // All the scopes are at or below the subscription: above = a path prefix of this scope.
      const pathHere = this.ancestors(here.scope);
      const above = evals.filter((e, u) => u < t && pathHere.has(e.scope));
      // Access only grows downwards (more assignments apply), unless a deny that does not apply
      // here applies below: only such scopes can be exceptions.
      const below = evals.filter(
        (e, u) =>
          u > t &&
          e.e.denies.some((d) => !here.e.denies.includes(d)) &&
          this.ancestors(e.scope).has(here.scope),
      );
      for (const k of here.below.ev.held) {
        if (here.filter && !here.filter(k)) continue;
        // The row's level is what the scope's subtree holds; the scope itself may hold less.
        const level = here.below.ev.levels[k] as number;
        let inherited = 0;
        for (const e of above) inherited = Math.max(inherited, e.below.ev.levels[k] as number);
        if (level <= inherited) continue;
        const except: string[] = [];
        // The scopes cut with their subtree: only the topmost of a cut subtree is named.
        const cut: string[] = [];
        if ((here.ev.levels[k] as number) < level)
          except.push(`${display(here.scope)}${THIS_SCOPE_ONLY}`);
        for (const e of below) {
          if ((e.ev.levels[k] as number) >= level || (e.filter && !e.filter(k))) continue;
          const ancestors = this.ancestors(e.scope);
          if (cut.some((x) => ancestors.has(x))) continue;
          if ((e.below.ev.levels[k] as number) >= level)
            except.push(`${display(e.scope)}${THIS_SCOPE_ONLY}`);
          else {
            cut.push(e.scope);
            except.push(display(e.scope));
          }
        }
        const pair = this.index.pairs[k] as { provider: string; capability: Capability };
        rows.push({
          service: pair.provider,
          capability: pair.capability,
          resourceArn: here.scope === sub ? "" : this.displayScope(here.scope),
          conditional: level === 1,
          exceptResources: except.length === 0 ? EMPTY : except,
          grantedBy: this.grantedBy(here.below, k),
        });
      }
    }
    return rows;
  }

  /** The pairs of one provider held in an evaluation, ascending. */
  private heldOf(ev: Evaluation, provider: number | undefined): readonly number[] {
    if (!ev.heldByProvider) {
      ev.heldByProvider = new Map();
      for (const k of ev.held)
        pushTo(ev.heldByProvider, (this.index.pairs[k] as CapabilityPair).providerIndex, k);
    }
    return provider === undefined ? EMPTY_PAIRS : (ev.heldByProvider.get(provider) ?? EMPTY_PAIRS);
  }

  /** The IAM-admin operations held in an evaluation, and whether any is held unconditionally. */
  private adminHeld({ ev }: ScopeEvaluation): { held: number[]; sure: boolean } {
    if (!ev.admin) {
      const bit = (bits: Uint32Array, i: number) =>
        (((bits[i >>> 5] as number) >>> (i & 31)) & 1) === 1;
      const held = this.adminOps.filter((i) => bit(ev.any, i));
      ev.admin = { held, sure: held.some((i) => bit(ev.sure, i)) };
    }
    return ev.admin;
  }

  private adminGrantedBy(e: ScopeEvaluation, held: readonly number[]): GrantSource[] {
    const bit = (bits: Uint32Array, i: number) =>
      (((bits[i >>> 5] as number) >>> (i & 31)) & 1) === 1;
    return e.assignments
      .filter(({ a }) => held.some((i) => bit(this.assignmentBits(a).any, i)))
      .map(({ a, viaGroup }) => this.sourceOf(a, viaGroup));
  }

  private principalRow(p: AzurePrincipal, s: Signature | undefined): PrincipalRow {
    const row: PrincipalRow = {
      principalArn: p.id,
      principalName: p.name,
      principalType: p.type,
      accountId: this.model.subscriptionId,
      iamAdmin: "no",
      groupArns: p.groups.map((g) => this.model.principals.get(g)?.id ?? g),
      tags: {},
    };
    if (!s || s.assignments.length === 0) return row;
    const e = this.evaluate(s, this.model.subscriptionScope);
    const { held, sure } = this.adminHeld(e);
    if (held.length === 0) return row;
    return {
      ...row,
      iamAdmin: sure ? "yes" : "conditional",
      iamAdminGrantedBy: this.adminGrantedBy(e, held),
      iamAdminActions: held.map((i) => (this.index.operations[i] as AzureOperationInfo).operation),
    };
  }

  private resourceRows(): ResourceRow[] {
    const sub = this.model.subscriptionScope;
    const own = new Set<string>([sub]);
    for (const a of this.model.assignments)
      if (a.kind === "resourceGroup" || a.kind === "resource") own.add(a.scopeKey);
    return [...own].map((scope) => {
      const resourceType: ResourceType =
        scope === sub
          ? "AzureSubscription"
          : this.model.scopes.get(scope)?.kind === "resourceGroup"
            ? "AzureResourceGroup"
            : "AzureResource";
      const display =
        scope === sub ? `/subscriptions/${this.model.subscriptionId}` : this.displayScope(scope);
      return {
        resourceArn: display,
        resourceType,
        service:
          resourceType === "AzureResource"
            ? (providerOfResourceId(display) ?? RESOURCES_SERVICE)
            : RESOURCES_SERVICE,
        accountId: this.model.subscriptionId,
        allowsAnyPrincipal: false,
      };
    });
  }

  /** Resource rows of one evaluation: the provider's capabilities, and IAM admin over the scope. */
  private templates(e: ScopeEvaluation, provider: number | undefined): ResourceRowTemplate[] {
    e.templates ??= new Map();
    let out = e.templates.get(provider);
    if (!out) {
      // The rows depend only on the applicable assignments (and how each is received), the
      // access and the provider: evaluations alike in these share them, across signatures too.
      const assignments = e.assignments.map(
        ({ a, viaGroup }) => `${a.index}${viaGroup ? "g" : "d"}`,
      );
      const key = `${assignments.join(",")}|${e.key}|${provider}`;
      out = this.sharedTemplates.get(key);
      if (!out) {
        out = this.templatesOf(e, provider);
        this.sharedTemplates.set(key, out);
      }
      e.templates.set(provider, out);
    }
    return out;
  }

  private templatesOf(e: ScopeEvaluation, provider: number | undefined): ResourceRowTemplate[] {
    const out: ResourceRowTemplate[] = [];
    for (const k of this.heldOf(e.ev, provider)) {
      const pair = this.index.pairs[k] as CapabilityPair;
      out.push({
        service: pair.provider,
        capability: pair.capability,
        conditional: e.ev.levels[k] === 1,
        grantedBy: this.grantedBy(e, k),
      });
    }
    const { held, sure } = this.adminHeld(e);
    if (held.length > 0 && this.authorization)
      out.push({
        service: this.authorization,
        capability: "administer-resource",
        conditional: !sure,
        grantedBy: this.adminGrantedBy(e, held),
      });
    return out;
  }

  /**
   * Who holds what on each resource row's scope: every principal whose assignments reach it
   * (inherited ones too), for the scope's own provider (Microsoft.Resources for a subscription
   * or resource group), plus `administer-resource` on Microsoft.Authorization for those who can
   * change access there (the IAM-admin operations).
   */
  private *resourceSummaries(resources: readonly ResourceRow[]): Generator<ResourceAccessSummary> {
    const context = this.resourceContext();
    // Indexed loops: array iterators held across a `yield` cost more than the rows themselves;
    // the members' IDs and types come from dense arrays, not from each member's object.
    for (const r of resources) {
      const holders = this.holdersAt(r, context);
      for (let h = 0; h < holders.length; h++) {
        const { s, rows } = holders[h] as Holder;
        for (let i = 0; i < rows.length; i++)
          for (let j = 0; j < s.memberIds.length; j++) {
            const t = rows[i] as ResourceRowTemplate;
            yield {
              resourceArn: r.resourceArn,
              resourceType: r.resourceType,
              service: t.service,
              capability: t.capability,
              principal: s.memberIds[j] as string,
              principalType: s.memberTypes[j] as PrincipalType,
              inAccount: true,
              conditional: t.conditional,
              grantedBy: t.grantedBy,
            };
          }
      }
    }
  }

  /** What every resource scope's holders are computed from. */
  private resourceContext(): ResourceContext {
    const sub = this.model.subscriptionScope;
    const fromAbove = new Set<Signature>();
    for (const above of this.ancestors(sub))
      for (const a of this.assignmentsAt.get(above) ?? [])
        for (const s of this.signaturesOfAssignment.get(a) ?? []) fromAbove.add(s);
    // Below the subscription: the signatures with an assignment at a scope, and those with a deny.
    const assignedAt = new Map<string, Set<Signature>>();
    const deniedAt = new Map<string, Set<Signature>>();
    const add = (index: Map<string, Set<Signature>>, scope: string, s: Signature) => {
      const set = index.get(scope) ?? new Set<Signature>();
      set.add(s);
      index.set(scope, set);
    };
    for (const s of this.signatures) {
      for (const { a } of s.assignments)
        if (s.below.has(a.scopeKey)) add(assignedAt, a.scopeKey, s);
      for (const d of s.denies) if (s.below.has(d.scopeKey)) add(deniedAt, d.scopeKey, s);
    }
    return { fromAbove, assignedAt, deniedAt, inheritedByProvider: new Map() };
  }

  /** The signatures holding something on a resource row's scope, each with its rows there. */
  private holdersAt(r: ResourceRow, context: ResourceContext): Holder[] {
    const sub = this.model.subscriptionScope;
    const { fromAbove, assignedAt, deniedAt, inheritedByProvider } = context;
    const scope = normalizeScope(r.resourceArn);
    const ancestors = this.ancestors(scope);
    // Signatures with an assignment or deny between the subscription and this scope.
    // A deny there matters only to those the subscription's access reaches already.
    const assigned = new Set<Signature>();
    const denied = new Set<Signature>();
    for (const above of ancestors) {
      for (const s of assignedAt.get(above) ?? []) assigned.add(s);
      for (const s of deniedAt.get(above) ?? []) if (fromAbove.has(s)) denied.add(s);
    }
    const provider =
      r.resourceType === "AzureResource"
        ? r.service.toLowerCase()
        : RESOURCES_SERVICE.toLowerCase();
    const filter = this.index.providerIndexOf(provider);
    // The signatures that inherit the subscription's access unchanged share their rows per provider.
    let inherited = inheritedByProvider.get(provider);
    if (!inherited) {
      inherited = [];
      for (const s of fromAbove) {
        const rows = this.templates(this.evaluate(s, sub), filter);
        if (rows.length > 0) inherited.push({ s, rows });
      }
      inheritedByProvider.set(provider, inherited);
    }
    // The others' rows come from their access at this scope.
    const rowsAt = (s: Signature) => this.templates(this.evaluate(s, scope), filter);
    const holders: Holder[] = [];
    for (const h of inherited) if (!assigned.has(h.s) && !denied.has(h.s)) holders.push(h);
    for (const s of denied) if (!assigned.has(s)) holders.push({ s, rows: rowsAt(s) });
    for (const s of assigned) holders.push({ s, rows: rowsAt(s) });
    return holders;
  }

  private *principalSummaries(): Generator<PrincipalAccessSummary> {
    for (const s of this.signatures) {
      if (s.assignments.length === 0) continue;
      const rows = this.signatureRows(s);
      const members = s.members;
      // Indexed loops: array iterators held across a `yield` cost more than the rows themselves.
      for (let j = 0; j < members.length; j++)
        for (let i = 0; i < rows.length; i++) {
          const m = members[j] as AzurePrincipal;
          const row = rows[i] as (typeof rows)[number];
          yield {
            principalArn: m.id,
            principalName: m.name,
            principalType: m.type,
            service: row.service,
            capability: row.capability,
            resourceArn: row.resourceArn,
            conditional: row.conditional,
            exceptResources: row.exceptResources,
            grantedBy: row.grantedBy,
          };
        }
      // The per-scope evaluations of this signature are not needed again for these rows.
      s.evals.clear();
    }
  }

  private readonly globs = new Map<string, CompiledGlob>();
  private matches(patterns: readonly string[], operation: string): boolean {
    return patterns.some((p) => {
      let glob = this.globs.get(p);
      if (!glob) {
        glob = compileOperationPattern(p.toLowerCase());
        this.globs.set(p, glob);
      }
      return matchOperation(glob, operation);
    });
  }

  private blockMatches(b: PermissionBlock, operation: string, data: boolean): boolean {
    return data
      ? this.matches(b.dataActions, operation) && !this.matches(b.notDataActions, operation)
      : this.matches(b.actions, operation) && !this.matches(b.notActions, operation);
  }

  /** Whether an assignment's condition passes an operation whatever the request (not read: never). */
  private conditionPasses(a: AzureAssignment, operation: string): boolean {
    if (!a.conditionNode) return false;
    return (
      conditionOutcome(a.conditionNode, (pattern) => this.matches([pattern], operation)) === true
    );
  }

  /** One request evaluated directly from the assignments (no bit sets): what the rows must agree with. */
  accessOf(principalId: string, operation: string, scope: string): AccessLevel | undefined {
    const p = this.model.principals.get(principalId.toLowerCase());
    const i = this.index.indexOf(operation);
    if (!p || i === undefined) return undefined;
    const data = (this.index.operations[i] as AzureOperationInfo).isDataAction;
    const target =
      scope === "" || scope === "*" ? this.model.subscriptionScope : normalizeScope(scope);
    const above = this.ancestors(target);
    const ids = new Set([p.key, ...p.groups]);
    let sure = false;
    let maybe = false;
    for (const a of this.model.assignments) {
      if (!ids.has(a.principal) || !above.has(a.scopeKey)) continue;
      for (const b of a.role.blocks) {
        if (!this.blockMatches(b, operation, data)) continue;
        if (b.condition || (a.condition !== undefined && !this.conditionPasses(a, operation)))
          maybe = true;
        else sure = true;
      }
    }
    if (!sure && !maybe) return "denied";
    for (const d of this.model.denies) {
      if (!denyApplies(d, [...ids])) continue;
      if (d.scopeKey !== target && (d.ownScopeOnly || !above.has(d.scopeKey))) continue;
      for (const b of d.blocks) {
        if (!this.blockMatches(b, operation, data)) continue;
        if (!d.condition && !b.condition) return "denied";
        sure = false;
        maybe = true;
      }
    }
    return sure ? "allowed" : "conditional";
  }

  /** The same request answered from the bit sets the rows are built from (for agreement tests). */
  levelFromBits(principalId: string, operation: string, scope: string): AccessLevel | undefined {
    const p = this.model.principals.get(principalId.toLowerCase());
    const i = this.index.indexOf(operation);
    if (!p || i === undefined) return undefined;
    const s = this.signatures.find((x) => x.members.includes(p));
    if (!s) return undefined;
    const target =
      scope === "" || scope === "*" ? this.model.subscriptionScope : normalizeScope(scope);
    const { ev } = this.evaluate(s, target);
    const bit = (bits: Uint32Array) => (((bits[i >>> 5] as number) >>> (i & 31)) & 1) === 1;
    return bit(ev.sure) ? "allowed" : bit(ev.any) ? "conditional" : "denied";
  }

  result(): AccountAnalysis {
    const signatureOfPrincipal = new Map<AzurePrincipal, Signature>();
    for (const s of this.signatures) for (const m of s.members) signatureOfPrincipal.set(m, s);
    const principals = [...this.model.principals.values()].map((p) =>
      this.principalRow(p, signatureOfPrincipal.get(p)),
    );
    const resources = this.resourceRows();
    return {
      principals,
      resources,
      principalAccessSummaries: () => this.principalSummaries(),
      resourceAccessSummaries: () => this.resourceSummaries(resources),
      accessOf: (principalId, operation, scope) => this.accessOf(principalId, operation, scope),
      issues: this.issues,
      stats: {
        principals: principals.length,
        policySets: this.signatures.filter((s) => s.assignments.length > 0).length,
        resources: resources.length,
        actionPatternsExpanded: this.index.patternsExpanded,
        policyLayersComputed: this.layers,
      },
    };
  }
}

/**
 * A deny assignment applies to a principal it names (or names a group of, or names all
 * principals through `SystemDefined`) unless the principal, or a group it belongs to, is excluded.
 */
function denyApplies(d: AzureDeny, ids: readonly string[]): boolean {
  if (ids.some((id) => d.excluded.has(id))) return false;
  return d.everyone || ids.some((id) => d.principals.has(id));
}

/**
 * Names and tags of the analysis's resource rows, for the reports: from the snapshot's resource
 * group and resource lists (IDs compared without case), else the scope's last segment (a
 * subscription's ID). Keyed by the rows' `resourceArn`.
 */
export function azureResourceMetadata(
  snapshot: Pick<AzureSnapshot, "resourceGroups" | "resources">,
  rows: readonly ResourceRow[],
): Map<string, { name: string; tags?: Readonly<Record<string, string>> }> {
  const listed = new Map<string, { name?: string; tags?: Readonly<Record<string, string>> }>();
  for (const r of [...(snapshot.resourceGroups ?? []), ...(snapshot.resources ?? [])])
    listed.set(normalizeScope(r.id), {
      ...(r.name ? { name: r.name } : {}),
      ...(r.tags ? { tags: r.tags } : {}),
    });
  const out = new Map<string, { name: string; tags?: Readonly<Record<string, string>> }>();
  for (const row of rows) {
    const found = listed.get(normalizeScope(row.resourceArn));
    out.set(row.resourceArn, {
      name: found?.name ?? row.resourceArn.slice(row.resourceArn.lastIndexOf("/") + 1),
      ...(found?.tags ? { tags: found.tags } : {}),
    });
  }
  return out;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
