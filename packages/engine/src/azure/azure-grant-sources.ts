import type { GrantSource } from "../analyze/analysis-types.ts";
import type { ScopeAccess } from "./azure-analysis-types.ts";
import type { AzureAssignment, AzureModel } from "./azure-model.ts";
import { hasOperation } from "./azure-operation-bits.ts";
import type { ScopeEvaluator } from "./azure-scope-evaluation.ts";

/**
 * Which role assignments grant a row ("granted by"): one frozen `GrantSource` per assignment,
 * received directly or through a group, shared by every row it grants.
 */
export class AzureGrantSources {
  private readonly direct: GrantSource[] = [];
  private readonly viaGroup: GrantSource[] = [];

  constructor(
    private readonly model: AzureModel,
    private readonly evaluator: ScopeEvaluator,
  ) {}

  /** The assignments that contribute to pair `pair` in an access. */
  grantedBy(at: ScopeAccess, pair: number): GrantSource[] {
    at.pairsByAssignment ??= at.assignments.map(({ assignment }) =>
      this.evaluator.pairsGrantedBy(assignment, at.access),
    );
    const out: GrantSource[] = [];
    at.assignments.forEach(({ assignment, viaGroup }, j) => {
      if (at.pairsByAssignment?.[j]?.[pair]) out.push(this.sourceOf(assignment, viaGroup));
    });
    return out;
  }

  /** The assignments that grant one of the IAM-admin operations `held`. */
  adminGrantedBy(at: ScopeAccess, held: readonly number[]): GrantSource[] {
    return at.assignments
      .filter(({ assignment }) =>
        held.some((i) => hasOperation(this.evaluator.bits.ofAssignment(assignment).any, i)),
      )
      .map(({ assignment, viaGroup }) => this.sourceOf(assignment, viaGroup));
  }

  private sourceOf(assignment: AzureAssignment, viaGroup: boolean): GrantSource {
    const cache = viaGroup ? this.viaGroup : this.direct;
    let source = cache[assignment.index];
    if (!source) {
      source = Object.freeze({
        policyType: "role-assignment",
        policyArn: assignment.id,
        policyName: assignment.role.roleName,
        ...(viaGroup
          ? { group: this.model.principals.get(assignment.principal)?.id ?? assignment.principal }
          : {}),
      }) as GrantSource;
      cache[assignment.index] = source;
    }
    return source;
  }
}
