import type { MatchedStatement } from "../authorize/authorization-result.ts";
import {
  decideRequest,
  emptyOutcome,
  type LevelsOutcome,
  levelsOutcome,
  type PolicySetOptions,
  unionOutcomes,
} from "../authorize/evaluate-layers.ts";
import {
  type EvaluationInput,
  evaluatePolicies,
  type PolicySetOutcome,
  unknownPolicies,
} from "../authorize/evaluate-policies.ts";
import { type OrganizationScope, organizationScope } from "../authorize/organization-scope.ts";
import { rcpCoversAction } from "../authorize/rcp-services.ts";
import { formulaAlgebra } from "../logic/algebra.ts";
import { FALSE, type Formula, TRUE } from "../logic/formula.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import type { AccessGraphOptions, AssumeAction } from "./access-graph-types.ts";
import type { AssumeTarget, AssumingPrincipal } from "./assuming-principal.ts";
import { type LayerPlan, LayerPlans } from "./layer-plans.ts";
import { OutcomeCache } from "./outcome-cache.ts";
import { PolicyFactsCache } from "./policy-relevance.ts";
import { TrustIndex } from "./trust-matcher.ts";

const NONE: PolicySetOutcome = emptyOutcome(formulaAlgebra);

/**
 * `authorize` for assume requests, step for step (the same statement matching, organization
 * scope and `composeDecision` over formulas), with each policy's outcome cached per class of
 * caller so that deciding many (principal, role) pairs costs little more than composing.
 */
export class AssumeEvaluator {
  private readonly outcomes: OutcomeCache;
  /** Per-build caches of policy facts, layer plans and indexed trust principals. */
  readonly facts = new PolicyFactsCache();
  readonly plans = new LayerPlans(this.facts);
  readonly trusts = new TrustIndex();
  private readonly scratch: MatchedStatement[] = [];
  decisions = 0;

  constructor(
    readonly model: AccountModel,
    readonly options: AccessGraphOptions,
  ) {
    this.outcomes = new OutcomeCache(model, options);
  }

  /** The decision's formula: TRUE (allowed), FALSE (denied) or the condition it is allowed under. */
  decide(who: AssumingPrincipal, target: AssumeTarget, action: AssumeAction): Formula {
    this.decisions++;
    const { caller, record } = who;
    const resourceAccount = target.info.accountId;
    const scope = this.scopeOf(who, resourceAccount);
    const req: LayerRequest = {
      who,
      target,
      action,
      resourceAccount,
      input: undefined,
    };
    const scp = this.levels(scope.scpLevels, req);
    const rcp = rcpCoversAction(action) ? this.levels(scope.rcpLevels, req) : NO_LEVELS;
    const identity = this.layer(record?.identityPolicies ?? [], req, OF_TYPE);
    const boundary = record?.permissionsBoundary
      ? this.layer(this.plans.listOf(record.permissionsBoundary), req, OF_TYPE)
      : undefined;
    const resource = target.info.record
      ? this.layer(this.plans.listOf(target.info.record.policy), req, RESOURCE_BASED)
      : NONE;
    this.scratch.length = 0;
    return decideRequest(formulaAlgebra, {
      requester: caller,
      scope,
      scp,
      rcp,
      identity,
      ...(boundary && { boundary }),
      resource,
      outsideIdentityAllow:
        caller.kind !== "external"
          ? FALSE
          : who.identityAssumed
            ? TRUE
            : unknownPolicies(caller.arn, action),
      mustAllow: target.info.mustAllow,
      assumeDefaultKeyPolicy: target.info.missingKeyPolicy,
    }).final;
  }

  private readonly scopeClasses = new Map<string, Map<string | undefined, OrganizationScope>>();

  /** Which organization policies apply: per class of caller (account, kind, service-linked) and resource account. */
  private scopeOf(who: AssumingPrincipal, accountId: string | undefined): OrganizationScope {
    const { caller, record } = who;
    let byAccount = who.scopes;
    if (!byAccount) {
      const key = `${caller.accountId}|${caller.kind}|${record?.serviceLinked === true}`;
      byAccount = this.scopeClasses.get(key) ?? new Map();
      this.scopeClasses.set(key, byAccount);
      who.scopes = byAccount;
    }
    let scope = byAccount.get(accountId);
    if (!scope) {
      scope = organizationScope(this.model, caller, record, accountId);
      byAccount.set(accountId, scope);
    }
    return scope;
  }

  /** The request as `evaluatePolicies` wants it, made only when some outcome is not cached. */
  private inputOf(req: LayerRequest): EvaluationInput {
    req.input ??= {
      action: req.action,
      resource: req.target.arn,
      resolve: this.outcomes.resolverFor(
        req.who,
        req.action,
        req.target.arn,
        req.target.info.accountId,
      ),
      caller: req.who.caller,
      matched: this.scratch,
    };
    return req.input;
  }

  private readonly constants = new Map<LayerPlan, PolicySetOutcome>();
  private readonly constantLevels = new Map<string, Map<Levels, LevelsOutcome<Formula>>>();

  /**
   * Organization policies, every level of which must allow: kept per list of levels
   * (one per account) when no level's outcome depends on the request.
   */
  private levels(levels: Levels | undefined, req: LayerRequest): LevelsOutcome<Formula> {
    if (!levels || levels.length === 0) return NO_LEVELS;
    let byLevels = this.constantLevels.get(req.action);
    if (!byLevels) {
      byLevels = new Map();
      this.constantLevels.set(req.action, byLevels);
    }
    const known = byLevels.get(levels);
    if (known) return known;
    const result = levelsOutcome(
      formulaAlgebra,
      levels.map((level) => this.layer(level, req, OF_TYPE)),
    );
    if (levels.every((level) => this.plans.planOf(level, req.action).constant))
      byLevels.set(levels, result);
    return result;
  }

  /** OR of the policies' outcomes, as `evaluatePolicies` over the whole list would give. */
  private layer(
    policies: readonly Policy[],
    req: LayerRequest,
    options: PolicySetOptions,
  ): PolicySetOutcome {
    const plan = this.plans.planOf(policies, req.action);
    if (plan.relevant.length === 0) return NONE;
    if (options.resourceBased || !plan.constant) return this.unionOfPlan(plan, req, options);
    let outcome = this.constants.get(plan);
    if (!outcome) {
      outcome = this.unionOfPlan(plan, req, options);
      this.constants.set(plan, outcome);
    }
    return outcome;
  }

  /** The union of the plan's relevant policies' outcomes, each cached per class of caller. */
  private unionOfPlan(
    plan: LayerPlan,
    req: LayerRequest,
    options: PolicySetOptions,
  ): PolicySetOutcome {
    const usePrincipal = options.resourceBased;
    let single: PolicySetOutcome | undefined;
    let parts: PolicySetOutcome[] | undefined;
    const caller = req.who.caller;
    for (const { policy, facts, anyResource } of plan.relevant) {
      const who = usePrincipal ? this.trusts.matchKey(policy.statements, caller) : "";
      const key = this.outcomes.keyOf(facts, req, anyResource ? "" : req.target.arn, who);
      let outcome = this.outcomes.get(key);
      if (!outcome) {
        const matches = usePrincipal ? this.trusts.matches(policy.statements, caller) : [];
        outcome = evaluatePolicies([policy], this.inputOf(req), {
          resourceBased: usePrincipal,
          ...(usePrincipal && {
            principalMatchOf: (s: Statement) => matches[policy.statements.indexOf(s)] ?? "none",
          }),
        });
        this.outcomes.set(key, outcome);
      }
      if (!single) single = outcome;
      else if (parts) parts.push(outcome);
      else parts = [single, outcome];
    }
    if (!parts) return single ?? NONE;
    return unionOutcomes(formulaAlgebra, parts);
  }
}

type Levels = readonly (readonly Policy[])[];
const NO_LEVELS: LevelsOutcome<Formula> = { deny: FALSE, allow: [] };
const OF_TYPE: PolicySetOptions = { resourceBased: false };
const RESOURCE_BASED: PolicySetOptions = { resourceBased: true };

interface LayerRequest {
  who: AssumingPrincipal;
  target: AssumeTarget;
  action: AssumeAction;
  resourceAccount: string | undefined;
  input: EvaluationInput | undefined;
}
