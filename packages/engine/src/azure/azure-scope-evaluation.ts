import type { Access, ReceivedAssignment, ScopeAccess, Signature } from "./azure-analysis-types.ts";
import type { AzureAssignment, AzureDeny, AzureModel } from "./azure-model.ts";
import { type AzureOperationBits, hasOperation, orInto } from "./azure-operation-bits.ts";
import type { AzureOperationIndex, CapabilityPair } from "./azure-operations.ts";
import { ancestorsOrSelf } from "./azure-scope.ts";
import { pushTo } from "./azure-signatures.ts";

export const AUTHORIZATION = "microsoft.authorization";
const EMPTY_PAIRS: readonly number[] = Object.freeze([]);

/**
 * The access of a signature at a scope: the union of its assignments at and above the scope,
 * less what the deny assignments that apply there remove. Signatures and scopes whose
 * assignments' roles and denies are alike share one `Access`.
 */
export class ScopeEvaluator {
  /** How many distinct accesses were computed (the analysis's `policyLayersComputed`). */
  layers = 0;
  /**
   * The IAM-admin operations: administer-resource on Microsoft.Authorization that changes who
   * may do what (`…/write`, `…/delete`: role assignments and definitions, policy, locks) and
   * `elevateAccess/action`; cancelling a PIM request does not make an admin.
   */
  readonly adminOperations: number[];
  private readonly accessByKey = new Map<string, Access>();
  /** Per access with a deny, per role (and condition): the pairs an assignment contributes to. */
  private readonly pairsUnderDeny = new Map<Access, Map<number, Uint8Array>>();
  /** Per role (and condition): the pairs an assignment contributes to, nothing denied. */
  private readonly pairsOfRole = new Map<string, Uint8Array>();
  private readonly ancestorSets = new Map<string, Set<string>>();

  constructor(
    private readonly model: AzureModel,
    private readonly index: AzureOperationIndex,
    readonly bits: AzureOperationBits,
  ) {
    this.adminOperations = index.operations.flatMap((op, i) =>
      op.provider.toLowerCase() === AUTHORIZATION &&
      !op.isDataAction &&
      op.capabilities.includes("administer-resource") &&
      /\/(write|delete)$|^microsoft\.authorization\/elevateaccess\/action$/i.test(op.operation)
        ? [i]
        : [],
    );
  }

  /** The scope and those above it, root first (cached). */
  ancestors(scope: string): Set<string> {
    let set = this.ancestorSets.get(scope);
    if (!set) {
      set = new Set(ancestorsOrSelf(scope, this.model.tree));
      this.ancestorSets.set(scope, set);
    }
    return set;
  }

  /** The access of a signature at a scope: the union of its assignments at and above, less what applicable denies remove. */
  evaluate(signature: Signature, scope: string): ScopeAccess {
    const cached = signature.accessByScope.get(scope);
    if (cached) return cached;
    const from = this.inheritsFrom(signature, scope);
    if (from !== undefined) return this.evaluate(signature, from);
    const { assignments, denies } = this.applicable(signature, scope);
    const result = this.accessOf(assignments, denies);
    signature.accessByScope.set(scope, result);
    return result;
  }

  /**
   * The access of the children of a scope that have no assignment or deny of their own: the
   * scope's, less its denies that apply to their own scope only (`doNotApplyToChildScopes`).
   */
  evaluateBelow(scope: string, at: ScopeAccess): ScopeAccess {
    const own = (d: AzureDeny) => d.ownScopeOnly && d.scopeKey === scope;
    if (!at.denies.some(own)) return at;
    return this.accessOf(
      at.assignments,
      at.denies.filter((d) => !own(d)),
    );
  }

  /** The pairs to which one assignment contributes under an access. */
  pairsGrantedBy(assignment: AzureAssignment, access: Access): Uint8Array {
    // Without a deny, everything the assignment grants is in the access.
    if (!access.denied) return this.pairsOfAssignment(assignment);
    let byRole = this.pairsUnderDeny.get(access);
    if (!byRole) {
      byRole = new Map();
      this.pairsUnderDeny.set(access, byRole);
    }
    const key = assignment.condition ? -1 - assignment.role.index : assignment.role.index;
    let pairs = byRole.get(key);
    if (!pairs) {
      const bits = this.bits.ofAssignment(assignment).any;
      const both = new Uint32Array(this.bits.words);
      let cut = false;
      for (let w = 0; w < this.bits.words; w++) {
        both[w] = (bits[w] as number) & (access.any[w] as number);
        if (both[w] !== bits[w]) cut = true;
      }
      // A deny that removes none of the assignment's operations leaves its pairs as they are.
      pairs = cut ? this.index.pairLevels(both, both) : this.pairsOfAssignment(assignment);
      byRole.set(key, pairs);
    }
    return pairs;
  }

  /** The pairs of one provider held in an access, ascending. */
  heldOf(access: Access, provider: number | undefined): readonly number[] {
    if (!access.heldByProvider) {
      access.heldByProvider = new Map();
      for (const k of access.held)
        pushTo(access.heldByProvider, (this.index.pairs[k] as CapabilityPair).providerIndex, k);
    }
    return provider === undefined
      ? EMPTY_PAIRS
      : (access.heldByProvider.get(provider) ?? EMPTY_PAIRS);
  }

  /** The IAM-admin operations held in an access, and whether any is held unconditionally. */
  adminHeld({ access }: ScopeAccess): { held: number[]; sure: boolean } {
    if (!access.admin) {
      const held = this.adminOperations.filter((i) => hasOperation(access.any, i));
      access.admin = { held, sure: held.some((i) => hasOperation(access.sure, i)) };
    }
    return access.admin;
  }

  private pairsOfAssignment(assignment: AzureAssignment): Uint8Array {
    const key = `${assignment.role.index}${assignment.condition ? "c" : ""}`;
    let pairs = this.pairsOfRole.get(key);
    if (!pairs) {
      const bits = this.bits.ofAssignment(assignment).any;
      pairs = this.index.pairLevels(bits, bits);
      this.pairsOfRole.set(key, pairs);
    }
    return pairs;
  }

  private applicable(signature: Signature, scope: string) {
    const above = this.ancestors(scope);
    const assignments = signature.assignments.filter((x) => above.has(x.assignment.scopeKey));
    const denies = signature.denies.filter(
      (d) => d.scopeKey === scope || (!d.ownScopeOnly && above.has(d.scopeKey)),
    );
    return { assignments, denies };
  }

  private accessKey(assignments: readonly ReceivedAssignment[], denies: readonly AzureDeny[]) {
    const roles = [...new Set(assignments.map((x) => this.bits.roleKey(x.assignment)))].sort();
    return `${roles.join(",")}|${denies.map((d) => d.index).join(",")}`;
  }

  private accessOf(assignments: ReceivedAssignment[], denies: AzureDeny[]): ScopeAccess {
    const accessKey = this.accessKey(assignments, denies);
    let access = this.accessByKey.get(accessKey);
    if (!access) {
      this.layers++;
      const words = this.bits.words;
      const sure = new Uint32Array(words);
      const any = new Uint32Array(words);
      for (const { assignment } of assignments) {
        const bits = this.bits.ofAssignment(assignment);
        orInto(sure, bits.sure);
        orInto(any, bits.any);
      }
      for (const d of denies) {
        const bits = this.bits.ofDeny(d);
        for (let w = 0; w < words; w++) {
          // A sure deny removes the operation; a conditional one leaves it conditional at most.
          any[w] = (any[w] as number) & ~(bits.sure[w] as number);
          sure[w] = (sure[w] as number) & ~(bits.any[w] as number);
        }
      }
      const levels = this.index.pairLevels(sure, any);
      const held: number[] = [];
      for (let k = 0; k < levels.length; k++) if (levels[k]) held.push(k);
      access = { sure, any, levels, held: Int32Array.from(held), denied: denies.length > 0 };
      this.accessByKey.set(accessKey, access);
    }
    return { access, accessKey, assignments, denies };
  }

  /**
   * A scope below the subscription where the signature has no assignment or deny of its own
   * has the access of the nearest scope above that has one (or of the subscription): the
   * same assignments and denies apply, unless a deny there applies to its own scope only.
   */
  private inheritsFrom(signature: Signature, scope: string): string | undefined {
    const sub = this.model.subscriptionScope;
    const own = signature.scopesBelowSubscription;
    if (scope === sub || own.has(scope) || !scope.startsWith(`${sub}/`)) return undefined;
    let nearest = sub;
    // Ancestors come root first: the last one of the signature's is the nearest.
    for (const above of this.ancestors(scope)) if (own.has(above)) nearest = above;
    if (signature.denies.some((d) => d.ownScopeOnly && d.scopeKey === nearest)) return undefined;
    return nearest;
  }
}
