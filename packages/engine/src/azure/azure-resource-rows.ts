import type {
  PrincipalType,
  ResourceAccessSummary,
  ResourceRow,
  ResourceType,
} from "../analyze/analysis-types.ts";
import type { ResourceRowTemplate, ScopeAccess, Signature } from "./azure-analysis-types.ts";
import type { AzureGrantSources } from "./azure-grant-sources.ts";
import type { AzureModel } from "./azure-model.ts";
import type { AzureOperationIndex, CapabilityPair } from "./azure-operations.ts";
import { displayScope } from "./azure-principal-rows.ts";
import { normalizeScope, providerOfResourceId } from "./azure-scope.ts";
import type { ScopeEvaluator } from "./azure-scope-evaluation.ts";
import type { AzureSignatures } from "./azure-signatures.ts";

const RESOURCES_SERVICE = "Microsoft.Resources";

/** A signature holding something on a resource row's scope, with its rows there. */
interface Holder {
  signature: Signature;
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

/** The resource rows, and the resource summaries: who holds what on each. */
export class AzureResourceRows {
  /** Resource rows by applicable assignments, access and provider (see `templates`). */
  private readonly sharedTemplates = new Map<string, ResourceRowTemplate[]>();

  constructor(
    private readonly model: AzureModel,
    private readonly index: AzureOperationIndex,
    private readonly evaluator: ScopeEvaluator,
    private readonly sources: AzureGrantSources,
    private readonly grouped: AzureSignatures,
    /** Microsoft.Authorization as the catalogue spells it. */
    private readonly authorization: string | undefined,
  ) {}

  /** A row per scope with an assignment: the subscription, resource groups and resources. */
  rows(): ResourceRow[] {
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
      const display = displayScope(this.model, scope);
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

  /**
   * Who holds what on each resource row's scope: every principal whose assignments reach it
   * (inherited ones too), for the scope's own provider (Microsoft.Resources for a subscription
   * or resource group), plus `administer-resource` on Microsoft.Authorization for those who can
   * change access there (the IAM-admin operations).
   */
  *summaries(resources: readonly ResourceRow[]): Generator<ResourceAccessSummary> {
    const context = this.resourceContext();
    // Indexed loops: array iterators held across a `yield` cost more than the rows themselves;
    // the members' IDs and types come from dense arrays, not from each member's object.
    for (const r of resources) {
      const holders = this.holdersAt(r, context);
      for (let h = 0; h < holders.length; h++) {
        const { signature, rows } = holders[h] as Holder;
        for (let i = 0; i < rows.length; i++)
          for (let j = 0; j < signature.memberIds.length; j++) {
            const t = rows[i] as ResourceRowTemplate;
            yield {
              resourceArn: r.resourceArn,
              resourceType: r.resourceType,
              service: t.service,
              capability: t.capability,
              principal: signature.memberIds[j] as string,
              principalType: signature.memberTypes[j] as PrincipalType,
              inAccount: true,
              conditional: t.conditional,
              grantedBy: t.grantedBy,
            };
          }
      }
    }
  }

  /** Resource rows of one access: the provider's capabilities, and IAM admin over the scope. */
  private templates(at: ScopeAccess, provider: number | undefined): ResourceRowTemplate[] {
    at.rowsByProvider ??= new Map();
    let out = at.rowsByProvider.get(provider);
    if (!out) {
      // The rows depend only on the applicable assignments (and how each is received), the
      // access and the provider: accesses alike in these share them, across signatures too.
      const assignments = at.assignments.map(
        ({ assignment, viaGroup }) => `${assignment.index}${viaGroup ? "g" : "d"}`,
      );
      const key = `${assignments.join(",")}|${at.accessKey}|${provider}`;
      out = this.sharedTemplates.get(key);
      if (!out) {
        out = this.templatesOf(at, provider);
        this.sharedTemplates.set(key, out);
      }
      at.rowsByProvider.set(provider, out);
    }
    return out;
  }

  private templatesOf(at: ScopeAccess, provider: number | undefined): ResourceRowTemplate[] {
    const out: ResourceRowTemplate[] = [];
    for (const k of this.evaluator.heldOf(at.access, provider)) {
      const pair = this.index.pairs[k] as CapabilityPair;
      out.push({
        service: pair.provider,
        capability: pair.capability,
        conditional: at.access.levels[k] === 1,
        grantedBy: this.sources.grantedBy(at, k),
      });
    }
    const { held, sure } = this.evaluator.adminHeld(at);
    if (held.length > 0 && this.authorization)
      out.push({
        service: this.authorization,
        capability: "administer-resource",
        conditional: !sure,
        grantedBy: this.sources.adminGrantedBy(at, held),
      });
    return out;
  }

  /** What every resource scope's holders are computed from. */
  private resourceContext(): ResourceContext {
    const sub = this.model.subscriptionScope;
    const { signatures, assignmentsAt, signaturesOfAssignment } = this.grouped;
    const fromAbove = new Set<Signature>();
    for (const above of this.evaluator.ancestors(sub))
      for (const a of assignmentsAt.get(above) ?? [])
        for (const s of signaturesOfAssignment.get(a) ?? []) fromAbove.add(s);
    // Below the subscription: the signatures with an assignment at a scope, and those with a deny.
    const assignedAt = new Map<string, Set<Signature>>();
    const deniedAt = new Map<string, Set<Signature>>();
    const add = (index: Map<string, Set<Signature>>, scope: string, s: Signature) => {
      const set = index.get(scope) ?? new Set<Signature>();
      set.add(s);
      index.set(scope, set);
    };
    for (const s of signatures) {
      for (const { assignment } of s.assignments)
        if (s.scopesBelowSubscription.has(assignment.scopeKey))
          add(assignedAt, assignment.scopeKey, s);
      for (const d of s.denies)
        if (s.scopesBelowSubscription.has(d.scopeKey)) add(deniedAt, d.scopeKey, s);
    }
    return { fromAbove, assignedAt, deniedAt, inheritedByProvider: new Map() };
  }

  /** The signatures holding something on a resource row's scope, each with its rows there. */
  private holdersAt(r: ResourceRow, context: ResourceContext): Holder[] {
    const sub = this.model.subscriptionScope;
    const { fromAbove, assignedAt, deniedAt, inheritedByProvider } = context;
    const scope = normalizeScope(r.resourceArn);
    const ancestors = this.evaluator.ancestors(scope);
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
      for (const signature of fromAbove) {
        const rows = this.templates(this.evaluator.evaluate(signature, sub), filter);
        if (rows.length > 0) inherited.push({ signature, rows });
      }
      inheritedByProvider.set(provider, inherited);
    }
    // The others' rows come from their access at this scope.
    const rowsAt = (s: Signature) => this.templates(this.evaluator.evaluate(s, scope), filter);
    const holders: Holder[] = [];
    for (const h of inherited)
      if (!assigned.has(h.signature) && !denied.has(h.signature)) holders.push(h);
    for (const s of denied) if (!assigned.has(s)) holders.push({ signature: s, rows: rowsAt(s) });
    for (const s of assigned) holders.push({ signature: s, rows: rowsAt(s) });
    return holders;
  }
}
