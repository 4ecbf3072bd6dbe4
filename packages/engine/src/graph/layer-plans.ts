import type { Policy } from "../policy/policy-types.ts";
import type { PolicyFacts, PolicyFactsCache } from "./policy-relevance.ts";

export interface PlannedPolicy {
  policy: Policy;
  facts: PolicyFacts;
  anyResource: boolean;
}

/** The policies of one layer (a principal's identity policies, an SCP level, …) that name an action. */
export interface LayerPlan {
  relevant: PlannedPolicy[];
  /**
   * Every relevant policy matches any resource and reads nothing the engine derives
   * from the request: the layer has one outcome for every caller and role.
   */
  constant: boolean;
}

/**
 * Plans of policy lists for one build, kept per list (a principal's identity policies,
 * an SCP level), so that each decision looks one plan up instead of asking every policy
 * whether it matters.
 */
export class LayerPlans {
  /** Nearly every request is sts:AssumeRole: its plans skip the per-action map. */
  private readonly assumePlans = new Map<readonly Policy[], LayerPlan>();
  private readonly plans = new Map<string, Map<readonly Policy[], LayerPlan>>();
  private readonly singletons = new Map<Policy, readonly Policy[]>();

  constructor(private readonly facts: PolicyFactsCache) {}

  planOf(policies: readonly Policy[], action: string): LayerPlan {
    let byList = this.assumePlans;
    if (action !== "sts:AssumeRole") {
      byList = this.plans.get(action) ?? new Map();
      this.plans.set(action, byList);
    }
    let plan = byList.get(policies);
    if (!plan) {
      plan = this.makePlan(policies, action);
      byList.set(policies, plan);
    }
    return plan;
  }

  /** A stable one-policy list (boundaries, trust policies), so its plan is found again. */
  listOf(policy: Policy): readonly Policy[] {
    let list = this.singletons.get(policy);
    if (!list) {
      list = [policy];
      this.singletons.set(policy, list);
    }
    return list;
  }

  private makePlan(policies: readonly Policy[], action: string): LayerPlan {
    const relevant: PlannedPolicy[] = [];
    for (const policy of policies) {
      const relevance = this.facts.relevanceOf(policy.statements, action);
      if (relevance.relevant)
        relevant.push({
          policy,
          facts: this.facts.factsOf(policy.statements),
          anyResource: relevance.anyResource,
        });
    }
    const constant = relevant.every(
      ({ facts, anyResource }) =>
        anyResource &&
        !facts.dependent &&
        !facts.readsKind &&
        !facts.readsCallerAccount &&
        !facts.readsResourceAccount,
    );
    return { relevant, constant };
  }
}
