import type { AuthorizationRequest } from "../authorize/authorization-request.ts";
import { PROTECTED_PREFIXES, protectedRulesFor } from "../authorize/aws-protected-resources.ts";
import type { LayerOutcome } from "../authorize/compose-decision.ts";
import {
  decideRequest,
  emptyOutcome,
  levelsOutcome,
  type PolicySetOptions,
  policySetOutcome,
  unionOutcomes,
} from "../authorize/evaluate-layers.ts";
import { statementAppliesToResource } from "../authorize/evaluate-statement.ts";
import { findResourcePolicy } from "../authorize/find-resource-policy.ts";
import { matchStatementPrincipal, type PrincipalMatch } from "../authorize/match-principal.ts";
import { type OrganizationScope, organizationScope } from "../authorize/organization-scope.ts";
import { RCP_SERVICE_PREFIXES } from "../authorize/rcp-services.ts";
import { createKeyResolver } from "../authorize/request-context.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import { principalOfRecord } from "../authorize/resolve-requesting-principal.ts";
import type { Algebra } from "../logic/algebra.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { KeyResolver } from "../policy/policy-variables.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import { setBit } from "./bits.ts";
import { PolicyIds } from "./policy-traits.ts";
import { createTriSetAlgebra, TRI_FALSE, TRI_TRUE, type TriSet } from "./tri-set.ts";

export interface ResourceSide {
  /** The resource policy's outcome for the requester (empty when the resource has none). */
  policyOutcome: LayerOutcome<TriSet>;
  /** The resource's policy must allow even in the same account (role trust, KMS key policy). */
  mustAllow: boolean;
  /** A KMS key without a supplied key policy: the default one is assumed. */
  missingKeyPolicy: boolean;
  /** A KMS key whose key policy could not be read: `policyOutcome` is `UNREAD_KEY_POLICY`. */
  keyPolicyUnread: boolean;
  /** A bucket of unknown owner: the same-account answer is conditional on ownership. */
  ownerUnknown: boolean;
  /** The resource's account, when known. */
  accountId?: string;
}

/** One request of the analysis: a requester and a resource, for every action of a window. */
export interface WindowRequest {
  requester: RequestingPrincipal;
  /** The requester's IAM user or role (none for principals outside the snapshots). */
  record?: PrincipalRecord | undefined;
  /** The resource ARN or pattern, taken as a literal string. */
  resource: string;
  window: PrefixWindow;
  /** For a requester outside the snapshots: take its own account's IAM as allowing. */
  outsideAccountAllows?: boolean;
  /**
   * A resource side computed for another literal (see `resourceSide`): identity, boundary
   * and organization policies are then matched against `resource`, the resource policy not.
   */
  resourceSide?: ResourceSide;
}

/** Whether the caller's account owns the resource: undecided for every action. */
const OWNERSHIP_UNKNOWN: TriSet = { sure: 0, maybe: 1 };
/** What a principal outside the snapshots may be allowed by its own account: undecided. */
const OUTSIDE_IDENTITY_UNKNOWN: TriSet = { sure: 0, maybe: 1 };

const EMPTY_LAYER: LayerOutcome<TriSet> = emptyOutcome(createTriSetAlgebra(0));
/** A key policy that could not be read, for every action (`unreadKeyPolicy` in `authorize`). */
const UNDECIDED: TriSet = { sure: 0, maybe: 1 };
const UNREAD_KEY_POLICY: LayerOutcome<TriSet> = {
  deny: TRI_FALSE,
  allow: UNDECIDED,
  allowDirect: UNDECIDED,
  allowRole: TRI_FALSE,
  allowAccount: UNDECIDED,
};
const LAYER_CACHE_LIMIT = 100_000;
const OF_TYPE: PolicySetOptions = { resourceBased: false };
const RESOURCE_BASED: PolicySetOptions = { resourceBased: true };

interface LayerRequest {
  resource: string;
  window: PrefixWindow;
  resolve: KeyResolver;
  /** Policy outcomes for this resource, window and class of caller, by policy content. */
  cache: Map<string | number, LayerOutcome<TriSet>>;
  caller: RequestingPrincipal;
  alg: Algebra<TriSet>;
}

/**
 * The decision of `authorize` for every action of a window at once: the same layer
 * evaluation (`decideRequest`, `policySetOutcome`) on action sets instead of formulas. Each
 * policy's outcome on a resource is computed once and shared by every principal it applies
 * to the same way.
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

  private readonly requesters = new WeakMap<PrincipalRecord, RequestingPrincipal>();

  /** The requesting principal of a user or role of the model (any session of a role), kept per record. */
  requesterOf(record: PrincipalRecord): RequestingPrincipal {
    let requester = this.requesters.get(record);
    if (!requester) {
      requester = principalOfRecord(record, undefined).caller;
      this.requesters.set(record, requester);
    }
    return requester;
  }

  evaluatePrincipal(record: PrincipalRecord, resource: string, window: PrefixWindow): TriSet {
    return this.evaluate({ requester: this.requesterOf(record), record, resource, window });
  }

  /**
   * The resource side of a request: its account, whether its policy must allow, and
   * that policy's outcome for this requester (computed as in `evaluate`).
   */
  resourceSide(request: WindowRequest): ResourceSide {
    return this.sideAndRequest(request).side;
  }

  private sideAndRequest(request: WindowRequest): { side: ResourceSide; req: LayerRequest } {
    const { window, resource } = request;
    const info = findResourcePolicy(this.model, `${window.prefix}:*`, resource);
    const req = this.request(request, info.accountId);
    const policyOutcome = info.keyPolicyUnread
      ? UNREAD_KEY_POLICY
      : info.record
        ? this.layer([info.record.policy], req, RESOURCE_BASED)
        : EMPTY_LAYER;
    const side: ResourceSide = {
      policyOutcome,
      mustAllow: info.mustAllow,
      missingKeyPolicy: info.missingKeyPolicy,
      keyPolicyUnread: info.keyPolicyUnread,
      ownerUnknown: info.ownerUnknown,
      ...(info.accountId && { accountId: info.accountId }),
    };
    return { side, req };
  }

  /** The decision for every action of the request's window, as `authorize` gives it one by one. */
  evaluate(request: WindowRequest): TriSet {
    const { requester, record, resource, window } = request;
    const computed = request.resourceSide ? undefined : this.sideAndRequest(request);
    const info = request.resourceSide ?? (computed as { side: ResourceSide }).side;
    const req = computed?.req ?? this.request(request, info.accountId);
    const { alg } = req;
    const scope = this.scopeOf(requester, record, info.accountId);
    const scp = (scope.scpLevels ?? []).map((level) => this.layer(level, req, OF_TYPE));
    const rcp = (scope.rcpLevels ?? []).map((level) => this.layer(level, req, OF_TYPE));
    const refused = this.refusedMask(resource, window);
    return decideRequest(alg, {
      requester,
      scope,
      scp: levelsOutcome(alg, scp),
      rcp: levelsOutcome(alg, rcp),
      // RCPs restrict only the actions of the services that support them.
      rcpCovers: this.rcpMask(window),
      identity: record ? this.layer(record.identityPolicies, req, OF_TYPE) : EMPTY_LAYER,
      ...(record?.permissionsBoundary && {
        boundary: this.layer([record.permissionsBoundary], req, OF_TYPE),
      }),
      resource: info.policyOutcome,
      outsideIdentityAllow: request.outsideAccountAllows ? TRI_TRUE : OUTSIDE_IDENTITY_UNKNOWN,
      mustAllow: info.mustAllow,
      assumeDefaultKeyPolicy: info.missingKeyPolicy,
      // A bucket of unknown owner: as in `authorize`, same-account grants only on ownership.
      ...(info.ownerUnknown && { ownedByRequester: OWNERSHIP_UNKNOWN }),
      // Actions AWS refuses to customers on this resource, as `authorize` answers them.
      ...(refused && { refusedByAws: refused }),
      // Actions that need no permission, as `authorize` answers them.
      alwaysAllowed: this.alwaysMask(window),
    }).final;
  }

  private request(request: WindowRequest, accountId: string | undefined): LayerRequest {
    const { requester: caller, record, resource, window } = request;
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
    caller: RequestingPrincipal,
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
    options: PolicySetOptions,
  ): LayerOutcome<TriSet> {
    const parts = policies.map((policy) => this.policyLayer(policy, req, options));
    if (parts.length === 0) return EMPTY_LAYER;
    if (parts.length === 1) return parts[0] as LayerOutcome<TriSet>;
    return unionOutcomes(req.alg, parts);
  }

  private policyLayer(
    policy: Policy,
    req: LayerRequest,
    options: PolicySetOptions,
  ): LayerOutcome<TriSet> {
    const who: readonly PrincipalMatch[] | undefined = options.resourceBased
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

  /** The policy's outcome (`policySetOutcome`): each statement applies to its action set, where its resource and conditions allow. */
  private computePolicyLayer(
    policy: Policy,
    req: LayerRequest,
    who: readonly PrincipalMatch[] | undefined,
  ): LayerOutcome<TriSet> {
    this.layersComputed++;
    const { firstWord, lastWord } = req.window;
    return policySetOutcome(req.alg, [policy], {
      ...(who && { principalMatch: (_p: Policy, _s: Statement, i: number) => who[i] ?? "none" }),
      appliesWhere: (_p, statement) => {
        const actions = this.index.actionSet(statement).subarray(firstWord, lastWord);
        if (actions.every((w) => w === 0)) return undefined;
        const applies = statementAppliesToResource(policy, statement, req.resource, req.resolve);
        if (applies.kind === "false") return undefined;
        return { sure: applies.kind === "true" ? actions : 0, maybe: actions };
      },
    });
  }
}
