import type { AzureOperationInfo } from "@sightline/capabilities";
import type { PrincipalAccessSummary, PrincipalRow } from "../analyze/analysis-types.ts";
import type { Signature } from "./azure-analysis-types.ts";
import type { AzureGrantSources } from "./azure-grant-sources.ts";
import type { AzureModel, AzurePrincipal } from "./azure-model.ts";
import type { AzureOperationIndex, CapabilityPair } from "./azure-operations.ts";
import { providerOfResourceId } from "./azure-scope.ts";
import { AUTHORIZATION, type ScopeEvaluator } from "./azure-scope-evaluation.ts";

const EMPTY: readonly string[] = Object.freeze([]);

type SignatureRow = Omit<
  PrincipalAccessSummary,
  "principalArn" | "principalName" | "principalType"
>;

/** A scope as the rows show it: as first given; the subscription as `/subscriptions/<id>`. */
export function displayScope(model: AzureModel, scope: string): string {
  return scope === model.subscriptionScope
    ? `/subscriptions/${model.subscriptionId}`
    : (model.scopes.get(scope)?.scope ?? scope);
}

/** The principal rows, and the principal summaries: what each principal holds where. */
export class AzurePrincipalRows {
  constructor(
    private readonly model: AzureModel,
    private readonly index: AzureOperationIndex,
    private readonly evaluator: ScopeEvaluator,
    private readonly sources: AzureGrantSources,
  ) {}

  /** A principal's row: IAM admin when it holds an IAM-admin operation at the subscription. */
  principalRow(p: AzurePrincipal, signature: Signature | undefined): PrincipalRow {
    const row: PrincipalRow = {
      principalArn: p.id,
      principalName: p.name,
      principalType: p.type,
      accountId: this.model.subscriptionId,
      iamAdmin: "no",
      groupArns: p.groups.map((g) => this.model.principals.get(g)?.id ?? g),
      tags: {},
    };
    if (!signature || signature.assignments.length === 0) return row;
    const at = this.evaluator.evaluate(signature, this.model.subscriptionScope);
    const { held, sure } = this.evaluator.adminHeld(at);
    if (held.length === 0) return row;
    return {
      ...row,
      iamAdmin: sure ? "yes" : "conditional",
      iamAdminGrantedBy: this.sources.adminGrantedBy(at, held),
      iamAdminActions: held.map((i) => (this.index.operations[i] as AzureOperationInfo).operation),
    };
  }

  *summaries(signatures: readonly Signature[]): Generator<PrincipalAccessSummary> {
    for (const signature of signatures) {
      if (signature.assignments.length === 0) continue;
      const rows = this.signatureRows(signature);
      const members = signature.members;
      // Indexed loops: array iterators held across a `yield` cost more than the rows themselves.
      for (let j = 0; j < members.length; j++)
        for (let i = 0; i < rows.length; i++) {
          const m = members[j] as AzurePrincipal;
          const row = rows[i] as SignatureRow;
          const summary: PrincipalAccessSummary = {
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
          if (row.exceptResourcesThisScopeOnly)
            summary.exceptResourcesThisScopeOnly = row.exceptResourcesThisScopeOnly;
          yield summary;
        }
      // The per-scope accesses of this signature are not needed again for these rows.
      signature.accessByScope.clear();
    }
  }

  /**
   * The summary rows of one signature, shared by its members. A row at a scope holds for the
   * scope and everything below it, less its `exceptResources` (each cut with its subtree) and
   * its `exceptResourcesThisScopeOnly` (each cut at that scope only, by a deny with
   * `doNotApplyToChildScopes` there: its children keep the row's access).
   */
  private signatureRows(signature: Signature): SignatureRow[] {
    const rows: SignatureRow[] = [];
    if (signature.assignments.length === 0) return rows;
    const { evaluator } = this;
    const scopes = this.scopesOf(signature);
    const accesses = scopes.map((scope) => {
      const at = evaluator.evaluate(signature, scope);
      // What the scope's children without assignments or denies of their own hold: the same,
      // unless a deny here applies to its own scope only. Never less than at the scope itself.
      const below = evaluator.evaluateBelow(scope, at);
      return { scope, at, levels: at.access.levels, below, filter: this.providerFilter(scope) };
    });
    const sub = this.model.subscriptionScope;
    const display = (scope: string) => displayScope(this.model, scope);
    for (const [t, here] of accesses.entries()) {
      // All the scopes are at or below the subscription: above = a path prefix of this scope.
      const pathHere = evaluator.ancestors(here.scope);
      const above = accesses.filter((x, u) => u < t && pathHere.has(x.scope));
      // Access only grows downwards (more assignments apply), unless a deny that does not apply
      // here applies below: only such scopes can be exceptions.
      const below = accesses.filter(
        (x, u) =>
          u > t &&
          x.at.denies.some((d) => !here.at.denies.includes(d)) &&
          evaluator.ancestors(x.scope).has(here.scope),
      );
      for (const k of here.below.access.held) {
        if (here.filter && !here.filter(k)) continue;
        // The row's level is what the scope's subtree holds; the scope itself may hold less.
        const level = here.below.access.levels[k] as number;
        let inherited = 0;
        for (const x of above) inherited = Math.max(inherited, x.below.access.levels[k] as number);
        if (level <= inherited) continue;
        const except: string[] = [];
        const exceptHere: string[] = [];
        // The scopes cut with their subtree: only the topmost of a cut subtree is named.
        const cut: string[] = [];
        if ((here.levels[k] as number) < level) exceptHere.push(display(here.scope));
        for (const x of below) {
          if ((x.levels[k] as number) >= level || (x.filter && !x.filter(k))) continue;
          const ancestors = evaluator.ancestors(x.scope);
          if (cut.some((c) => ancestors.has(c))) continue;
          if ((x.below.access.levels[k] as number) >= level) exceptHere.push(display(x.scope));
          else {
            cut.push(x.scope);
            except.push(display(x.scope));
          }
        }
        const pair = this.index.pairs[k] as CapabilityPair;
        rows.push({
          service: pair.provider,
          capability: pair.capability,
          resourceArn: here.scope === sub ? "" : display(here.scope),
          conditional: level === 1,
          exceptResources: except.length === 0 ? EMPTY : except,
          ...(exceptHere.length === 0 ? {} : { exceptResourcesThisScopeOnly: exceptHere }),
          grantedBy: this.sources.grantedBy(here.below, k),
        });
      }
    }
    return rows;
  }

  /** The scopes at which a signature's access can differ: the subscription, its assignments' and its denies' scopes below it. */
  private scopesOf(signature: Signature): string[] {
    const sub = this.model.subscriptionScope;
    const set = new Set<string>([sub]);
    for (const { assignment } of signature.assignments)
      if (assignment.scopeKey.startsWith(`${sub}/`)) set.add(assignment.scopeKey);
    for (const d of signature.denies) if (d.scopeKey.startsWith(`${sub}/`)) set.add(d.scopeKey);
    return [...set].sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
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
}
