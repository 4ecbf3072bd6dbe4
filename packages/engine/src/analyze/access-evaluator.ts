import { isAuthenticatedCaller } from "../authorize/always-allowed.ts";
import type { AuthorizationRequest } from "../authorize/authorization-request.ts";
import { PROTECTED_PREFIXES, protectedRulesFor } from "../authorize/aws-protected-resources.ts";
import type { Caller } from "../authorize/caller.ts";
import {
  composeDecision,
  type DecisionLayers,
  type LayerOutcome,
  ownedByCallerOr,
} from "../authorize/compose-decision.ts";
import { statementAppliesToResource } from "../authorize/evaluate-statement.ts";
import { findResourcePolicy } from "../authorize/find-resource-policy.ts";
import { matchStatementPrincipal, type PrincipalMatch } from "../authorize/match-principal.ts";
import { type OrganizationScope, organizationScope } from "../authorize/organization-scope.ts";
import { RCP_SERVICE_PREFIXES } from "../authorize/rcp-services.ts";
import { createKeyResolver } from "../authorize/request-context.ts";
import { fromRecord } from "../authorize/resolve-caller.ts";
import type { Algebra } from "../logic/algebra.ts";
import type { Policy } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import { setBit } from "./bits.ts";
import { PolicyIds } from "./policy-traits.ts";
import { createTriSetAlgebra, TRI_FALSE, TRI_TRUE, type TriSet } from "./tri-set.ts";

export interface ResourceSide {
  layer: LayerOutcome<TriSet>;
  mustAllow: boolean;
  missingKeyPolicy: boolean;
  /** A bucket of unknown owner: the same-account answer is conditional on ownership. */
  ownerUnknown: boolean;
  accountId?: string;
}

/** Whether the caller's account owns the resource: undecided for every action. */
const OWNERSHIP_UNKNOWN: TriSet = { sure: 0, maybe: 1 };

const EMPTY_LAYER: LayerOutcome<TriSet> = {
  deny: TRI_FALSE,
  allow: TRI_FALSE,
  allowDirect: TRI_FALSE,
  allowRole: TRI_FALSE,
  allowAccount: TRI_FALSE,
};
const LAYER_CACHE_LIMIT = 100_000;

interface LayerRequest {
  resource: string;
  window: PrefixWindow;
  resolve: KeyResolver;
  /** Policy outcomes for this resource, window and class of caller, by policy content. */
  cache: Map<string | number, LayerOutcome<TriSet>>;
  caller: Caller;
  alg: Algebra<TriSet>;
}

/**
 * The decision of `authorize` for every action of a window at once: the same rules
 * (`composeDecision`) on action sets instead of formulas. Each policy's outcome on a
 * resource is computed once and shared by every principal it applies to the same way.
 */
export class AccessEvaluator {
  readonly ids = new PolicyIds();
  private readonly layerCache = new Map<string, Map<string | number, LayerOutcome<TriSet>>>();
  private readonly algebras = new Map<number, Algebra<TriSet>>();
  layersComputed = 0;

  constructor(
    readonly model: AccountModel,
    readonly index: ActionIndex,
    /** Request keys assumed for every request of the analysis. */
    readonly context?: AuthorizationRequest["context"],
  ) {}

  private readonly callers = new WeakMap<PrincipalRecord, Caller>();

  evaluatePrincipal(record: PrincipalRecord, resource: string, window: PrefixWindow): TriSet {
    let caller = this.callers.get(record);
    if (!caller) {
      caller = fromRecord(record, undefined).caller;
      this.callers.set(record, caller);
    }
    return this.evaluate(caller, record, resource, window);
  }

  /**
   * The resource side of a request: its account, whether its policy must allow, and
   * that policy's outcome for this caller (computed as in `evaluate`).
   */
  resourceSide(
    caller: Caller,
    record: PrincipalRecord | undefined,
    resource: string,
    window: PrefixWindow,
  ): ResourceSide {
    return this.sideAndRequest(caller, record, resource, window).side;
  }

  private sideAndRequest(
    caller: Caller,
    record: PrincipalRecord | undefined,
    resource: string,
    window: PrefixWindow,
  ): { side: ResourceSide; req: LayerRequest } {
    const info = findResourcePolicy(this.model, `${window.prefix}:*`, resource);
    const req = this.request(caller, record, resource, window, info.accountId);
    const layer = info.record ? this.layer([info.record.policy], req, true) : EMPTY_LAYER;
    const side: ResourceSide = {
      layer,
      mustAllow: info.mustAllow,
      missingKeyPolicy: info.missingKeyPolicy,
      ownerUnknown: info.ownerUnknown,
      ...(info.accountId && { accountId: info.accountId }),
    };
    return { side, req };
  }

  /**
   * `assumeIdentityAllows`: for principals outside the snapshots, take their own account's IAM
   * as allowing. `side`: a resource side computed for another literal (see `resourceSide`);
   * identity, boundary and organization policies are then matched against `resource`.
   */
  evaluate(
    caller: Caller,
    record: PrincipalRecord | undefined,
    resource: string,
    window: PrefixWindow,
    assumeIdentityAllows = false,
    side?: ResourceSide,
  ): TriSet {
    const computed = side ? undefined : this.sideAndRequest(caller, record, resource, window);
    const info = side ?? (computed as { side: ResourceSide }).side;
    const req = computed?.req ?? this.request(caller, record, resource, window, info.accountId);
    const { alg } = req;
    const scope = this.scopeOf(caller, record, info.accountId);
    const scp = (scope.scpLevels ?? []).map((level) => this.layer(level, req, false));
    // RCPs restrict only the actions of the services that support them.
    const covered = this.rcpMask(window);
    const rcp = (scope.rcpLevels ?? []).map((level) => {
      const layer = this.layer(level, req, false);
      return { deny: alg.and(layer.deny, covered), allow: alg.or(layer.allow, alg.not(covered)) };
    });
    const identity = record ? this.layer(record.identityPolicies, req, false) : EMPTY_LAYER;
    const boundary = record?.permissionsBoundary
      ? this.layer([record.permissionsBoundary], req, false)
      : undefined;
    const resourceLayer = info.layer;
    let identityAllow = identity.allow;
    if (caller.kind === "root" || (caller.kind === "external" && assumeIdentityAllows))
      identityAllow = TRI_TRUE;
    else if (caller.kind === "external") identityAllow = { sure: 0, maybe: 1 };
    const layers: DecisionLayers<TriSet> = {
      scpDeny: alg.or(...scp.map((l) => l.deny)),
      scpAllow: scp.map((l) => l.allow),
      rcpDeny: alg.or(...rcp.map((l) => l.deny)),
      rcpAllow: rcp.map((l) => l.allow),
      identityDeny: identity.deny,
      identityAllow,
      ...(boundary && { boundary }),
      resource: resourceLayer,
      callerIsIam: scope.callerIsIam,
      sameAccount: scope.sameAccount,
      mustAllow: info.mustAllow,
      assumeDefaultKeyPolicy: info.missingKeyPolicy,
    };
    const composed = composeDecision(alg, layers);
    // A bucket of unknown owner: as in `authorize`, same-account grants only on ownership.
    let final = info.ownerUnknown
      ? ownedByCallerOr(alg, layers, composed, OWNERSHIP_UNKNOWN).final
      : composed.final;
    // Actions AWS refuses to customers on this resource, as `authorize` answers them.
    const refused = this.refusedMask(resource, window);
    if (refused) final = alg.and(final, alg.not(refused));
    // Actions that need no permission, as `authorize` answers them.
    return isAuthenticatedCaller(caller) ? alg.or(final, this.alwaysMask(window)) : final;
  }

  private request(
    caller: Caller,
    record: PrincipalRecord | undefined,
    resource: string,
    window: PrefixWindow,
    accountId: string | undefined,
  ): LayerRequest {
    const alg = this.algebraFor(window.lastWord - window.firstWord);
    const resolve = createKeyResolver(
      this.model,
      {
        principal: caller.arn,
        action: "",
        resource,
        ...(this.context && { context: this.context }),
      },
      caller,
      record,
      accountId,
    );
    // Policy outcomes are shared by requests on the same resource and window whose derivable keys agree.
    const scopeKey = `${window.prefix}|${caller.accountId}|${caller.kind}|${accountId ?? ""}|${resource}`;
    let cache = this.layerCache.get(scopeKey);
    if (!cache) {
      if (this.layerCache.size >= LAYER_CACHE_LIMIT) this.layerCache.clear();
      cache = new Map();
      this.layerCache.set(scopeKey, cache);
    }
    return { resource, window, resolve, cache, caller, alg };
  }

  private readonly scopes = new Map<string, OrganizationScope>();

  /** Which organization policies apply depends only on accounts, caller kind and the service-linked flag. */
  private scopeOf(
    caller: Caller,
    record: PrincipalRecord | undefined,
    accountId: string | undefined,
  ): OrganizationScope {
    const key = `${caller.accountId}|${caller.kind}|${record?.serviceLinked === true}|${accountId}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = organizationScope(this.model, caller, record, accountId);
      this.scopes.set(key, scope);
    }
    return scope;
  }

  private readonly alwaysMasks = new Map<string, TriSet>();

  private alwaysMask(window: PrefixWindow): TriSet {
    let mask = this.alwaysMasks.get(window.prefix);
    if (!mask) {
      const bits = this.index.alwaysAllowedMask.slice(window.firstWord, window.lastWord);
      const own = window.ownMask;
      // Only this window's own actions (its boundary words hold neighbours too).
      for (let w = 0; w < bits.length; w++) bits[w] = (bits[w] as number) & (own[w] as number);
      mask = bits.some((w) => w !== 0) ? { sure: bits, maybe: bits } : TRI_FALSE;
      this.alwaysMasks.set(window.prefix, mask);
    }
    return mask;
  }

  private readonly refusedMasks = new Map<string, TriSet | undefined>();

  /** The actions of this window that AWS refuses on `resource` (`aws-protected-resources.ts`). */
  private refusedMask(resource: string, window: PrefixWindow): TriSet | undefined {
    if (window !== this.index.fullWindow && !PROTECTED_PREFIXES.has(window.prefix))
      return undefined;
    const rules = protectedRulesFor(resource, this.model);
    if (rules.length === 0) return undefined;
    const key = `${window.prefix}|${rules.map((r) => r.resource).join("|")}`;
    if (this.refusedMasks.has(key)) return this.refusedMasks.get(key);
    const bits = new Uint32Array(window.lastWord - window.firstWord);
    let any = false;
    for (const rule of rules) {
      for (const action of rule.actions) {
        const i = this.index.indexOf(action);
        if (i === undefined || i < window.start || i >= window.end) continue;
        setBit(bits, i - window.firstWord * 32);
        any = true;
      }
    }
    const mask = any ? { sure: bits, maybe: bits } : undefined;
    this.refusedMasks.set(key, mask);
    return mask;
  }

  private readonly rcpMasks = new Map<string, TriSet>();

  private rcpMask(window: PrefixWindow): TriSet {
    let mask = this.rcpMasks.get(window.prefix);
    if (!mask) {
      const bits = this.index.maskOf(RCP_SERVICE_PREFIXES).slice(window.firstWord, window.lastWord);
      mask = { sure: bits, maybe: bits };
      this.rcpMasks.set(window.prefix, mask);
    }
    return mask;
  }

  private algebraFor(width: number): Algebra<TriSet> {
    let alg = this.algebras.get(width);
    if (!alg) {
      alg = createTriSetAlgebra(width);
      this.algebras.set(width, alg);
    }
    return alg;
  }

  /** OR of the policies' outcomes, each cached per resource, window and principal class. */
  private layer(
    policies: readonly Policy[],
    req: LayerRequest,
    usePrincipal: boolean,
  ): LayerOutcome<TriSet> {
    const parts = policies.map((policy) => this.policyLayer(policy, req, usePrincipal));
    if (parts.length === 0) return EMPTY_LAYER;
    if (parts.length === 1) return parts[0] as LayerOutcome<TriSet>;
    const { alg } = req;
    return {
      deny: alg.or(...parts.map((p) => p.deny)),
      allow: alg.or(...parts.map((p) => p.allow)),
      allowDirect: alg.or(...parts.map((p) => p.allowDirect)),
      allowRole: alg.or(...parts.map((p) => p.allowRole)),
      allowAccount: alg.or(...parts.map((p) => p.allowAccount)),
    };
  }

  private policyLayer(
    policy: Policy,
    req: LayerRequest,
    usePrincipal: boolean,
  ): LayerOutcome<TriSet> {
    const who: readonly PrincipalMatch[] | undefined = usePrincipal
      ? policy.statements.map((s) => matchStatementPrincipal(s, req.caller))
      : undefined;
    const id = this.ids.idOf(policy.statements);
    const dependent = this.ids.isDependent(policy.statements);
    const key = who
      ? `${id}|${who.join(",")}${dependent ? `|${req.caller.arn}` : ""}`
      : dependent
        ? `${id}|${req.caller.arn}`
        : id;
    const cached = req.cache.get(key);
    if (cached) return cached;
    const outcome = this.computePolicyLayer(policy, req, who);
    req.cache.set(key, outcome);
    return outcome;
  }

  private computePolicyLayer(
    policy: Policy,
    req: LayerRequest,
    who: readonly PrincipalMatch[] | undefined,
  ): LayerOutcome<TriSet> {
    this.layersComputed++;
    const { firstWord, lastWord } = req.window;
    const deny: TriSet[] = [];
    const allow: Record<Exclude<PrincipalMatch, "none">, TriSet[]> = {
      direct: [],
      role: [],
      account: [],
    };
    policy.statements.forEach((statement, i) => {
      const match = who ? (who[i] ?? "none") : "direct";
      if (match === "none") return;
      const actions = this.index.actionSet(statement).subarray(firstWord, lastWord);
      if (actions.every((w) => w === 0)) return;
      const applies = statementAppliesToResource(policy, statement, req.resource, req.resolve);
      if (applies.kind === "false") return;
      const leaf: TriSet = { sure: applies.kind === "true" ? actions : 0, maybe: actions };
      if (statement.effect === "Deny") deny.push(leaf);
      else allow[match].push(leaf);
    });
    const { alg } = req;
    const allowDirect = alg.or(...allow.direct);
    const allowRole = alg.or(...allow.role);
    const allowAccount = alg.or(...allow.account);
    return {
      deny: alg.or(...deny),
      allow: alg.or(allowDirect, allowRole, allowAccount),
      allowDirect,
      allowRole,
      allowAccount,
    };
  }
}
