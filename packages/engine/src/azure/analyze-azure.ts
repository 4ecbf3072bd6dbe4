import type { AzureOperationInfo } from "@sightline/capabilities";
import type { AccountAnalysis, ResourceRow } from "../analyze/analysis-types.ts";
import type { AccessLevel } from "../analyze/decision-at.ts";
import type { Issue } from "../issues.ts";
import { AzureAccessCheck } from "./azure-access-check.ts";
import type { Signature } from "./azure-analysis-types.ts";
import { AzureGrantSources } from "./azure-grant-sources.ts";
import type { AzureModel, AzurePrincipal } from "./azure-model.ts";
import { AzureOperationBits } from "./azure-operation-bits.ts";
import { operationIssues } from "./azure-operation-check.ts";
import { AzureOperationIndex, sharedAzureOperationIndex } from "./azure-operations.ts";
import { AzurePrincipalRows } from "./azure-principal-rows.ts";
import { AzureResourceRows } from "./azure-resource-rows.ts";
import { normalizeScope } from "./azure-scope.ts";
import { AUTHORIZATION, ScopeEvaluator } from "./azure-scope-evaluation.ts";
import { type AzureSignatures, groupBySignature } from "./azure-signatures.ts";
import { type AzureSnapshot, azureResourceSchema } from "./azure-snapshot.ts";
import { readAzureSnapshot } from "./read-azure-snapshot.ts";

export interface AzureAnalyzeOptions {
  /**
   * The operation catalogue (default: `listAzureOperations()` of `@sightline/capabilities`):
   * which operations exist, their provider, plane and capabilities.
   */
  operations?: readonly AzureOperationInfo[];
}

/**
 * Azure RBAC analysis of one subscription: who holds which capability where, as the same rows
 * as `analyzeAccount`. Pure. A snapshot that cannot be analysed at all throws
 * `AzureSnapshotError` naming the field; a malformed entry is left out with an issue.
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

/**
 * The analysis of one subscription's model, a façade over its parts: principals grouped by
 * signature (azure-signatures.ts), each signature's access per scope as bit sets
 * (azure-scope-evaluation.ts over azure-operation-bits.ts), the assignments that grant it
 * (azure-grant-sources.ts), and the rows built from these (azure-principal-rows.ts,
 * azure-resource-rows.ts); azure-access-check.ts answers single requests for the tests.
 */
export class AzureAnalysis {
  private readonly grouped: AzureSignatures;
  private readonly evaluator: ScopeEvaluator;
  private readonly principalRows: AzurePrincipalRows;
  private readonly resourceRows: AzureResourceRows;
  private readonly check: AzureAccessCheck;
  private readonly issues: Issue[];

  constructor(
    private readonly model: AzureModel,
    private readonly index: AzureOperationIndex,
  ) {
    this.issues = [...model.issues, ...operationIssues(model, index)];
    this.grouped = groupBySignature(model);
    this.evaluator = new ScopeEvaluator(model, index, new AzureOperationBits(index));
    const sources = new AzureGrantSources(model, this.evaluator);
    /** Microsoft.Authorization as the catalogue spells it. */
    const auth = index.providerIndexOf(AUTHORIZATION);
    const authorization = auth === undefined ? undefined : index.providers[auth];
    this.principalRows = new AzurePrincipalRows(model, index, this.evaluator, sources);
    this.resourceRows = new AzureResourceRows(
      model,
      index,
      this.evaluator,
      sources,
      this.grouped,
      authorization,
    );
    this.check = new AzureAccessCheck(model, index, this.evaluator, this.grouped.signatures);
  }

  /** One request evaluated directly from the assignments (no bit sets): what the rows must agree with. */
  accessOf(principalId: string, operation: string, scope: string): AccessLevel | undefined {
    return this.check.accessOf(principalId, operation, scope);
  }

  /** The same request answered from the bit sets the rows are built from (for agreement tests). */
  levelFromBits(principalId: string, operation: string, scope: string): AccessLevel | undefined {
    return this.check.levelFromBits(principalId, operation, scope);
  }

  result(): AccountAnalysis {
    const { signatures } = this.grouped;
    const signatureOfPrincipal = new Map<AzurePrincipal, Signature>();
    for (const s of signatures) for (const m of s.members) signatureOfPrincipal.set(m, s);
    const principals = [...this.model.principals.values()].map((p) =>
      this.principalRows.principalRow(p, signatureOfPrincipal.get(p)),
    );
    const resources: ResourceRow[] = this.resourceRows.rows();
    return {
      principals,
      resources,
      principalAccessSummaries: () => this.principalRows.summaries(signatures),
      resourceAccessSummaries: () => this.resourceRows.summaries(resources),
      accessOf: (principalId, operation, scope) => this.accessOf(principalId, operation, scope),
      issues: this.issues,
      stats: {
        principals: principals.length,
        policySets: signatures.filter((s) => s.assignments.length > 0).length,
        resources: resources.length,
        actionPatternsExpanded: this.index.patternsExpanded,
        policyLayersComputed: this.evaluator.layers,
      },
    };
  }
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
  // Read as the analysis reads them: an entry its schema refuses (an issue of the analysis) is left out.
  for (const entry of [...(snapshot.resourceGroups ?? []), ...(snapshot.resources ?? [])]) {
    const parsed = azureResourceSchema.safeParse(entry);
    if (!parsed.success) continue;
    const r = parsed.data;
    listed.set(normalizeScope(r.id), {
      ...(r.name ? { name: r.name } : {}),
      ...(r.tags ? { tags: r.tags } : {}),
    });
  }
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
