import type { AzureOperationInfo } from "@sightline/capabilities";
import type { AccessLevel } from "../analyze/decision-at.ts";
import type { CompiledGlob } from "../policy/glob.ts";
import type { Signature } from "./azure-analysis-types.ts";
import { conditionOutcome } from "./azure-condition.ts";
import type { AzureAssignment, AzureModel, PermissionBlock } from "./azure-model.ts";
import { hasOperation } from "./azure-operation-bits.ts";
import {
  type AzureOperationIndex,
  compileOperationPattern,
  matchOperation,
} from "./azure-operations.ts";
import { normalizeScope } from "./azure-scope.ts";
import type { ScopeEvaluator } from "./azure-scope-evaluation.ts";
import { denyApplies } from "./azure-signatures.ts";

/**
 * One request answered twice: directly from the assignments (`accessOf`, no bit sets: what the
 * rows must agree with) and from the bit sets the rows are built from (`levelFromBits`).
 */
export class AzureAccessCheck {
  private readonly globs = new Map<string, CompiledGlob>();

  constructor(
    private readonly model: AzureModel,
    private readonly index: AzureOperationIndex,
    private readonly evaluator: ScopeEvaluator,
    private readonly signatures: readonly Signature[],
  ) {}

  /** One request evaluated directly from the assignments (no bit sets): what the rows must agree with. */
  accessOf(principalId: string, operation: string, scope: string): AccessLevel | undefined {
    const p = this.model.principals.get(principalId.toLowerCase());
    const i = this.index.indexOf(operation);
    if (!p || i === undefined) return undefined;
    const data = (this.index.operations[i] as AzureOperationInfo).isDataAction;
    const target = this.targetOf(scope);
    const above = this.evaluator.ancestors(target);
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
    const signature = this.signatures.find((x) => x.members.includes(p));
    if (!signature) return undefined;
    const { access } = this.evaluator.evaluate(signature, this.targetOf(scope));
    return hasOperation(access.sure, i)
      ? "allowed"
      : hasOperation(access.any, i)
        ? "conditional"
        : "denied";
  }

  /** The scope asked about: the subscription for `""` or `*`. */
  private targetOf(scope: string): string {
    return scope === "" || scope === "*" ? this.model.subscriptionScope : normalizeScope(scope);
  }

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
}
