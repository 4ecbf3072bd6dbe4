import { isPrincipalKey } from "../analyze/policy-traits.ts";
import type { PolicySetOutcome } from "../authorize/evaluate-policies.ts";
import { createKeyResolver } from "../authorize/request-context.ts";
import type { KeyLookup, KeyResolver } from "../policy/policy-variables.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import type { AccessGraphOptions } from "./access-graph-types.ts";
import type { AssumingPrincipal } from "./assuming-principal.ts";
import type { PolicyFacts } from "./policy-relevance.ts";

const UNKNOWN: KeyLookup = { state: "unknown" };
/** Outcomes that match every resource alike are kept; bound them all the same. */
const SHARED_LIMIT = 200_000;

/**
 * Policy outcomes keyed by what they depend on (`PolicyFacts`, the resource unless any
 * resource matches alike, how a trust names the caller); per-role outcomes live one role.
 */
export class OutcomeCache {
  private readonly shared = new Map<string, PolicySetOutcome>();
  private perTarget = new Map<string, PolicySetOutcome>();
  private currentTarget = "";

  constructor(
    private readonly model: AccountModel,
    private readonly options: AccessGraphOptions,
  ) {}

  keyOf(
    f: PolicyFacts,
    req: { who: AssumingPrincipal; action: string; resourceAccount: string | undefined },
    resource: string,
    match: string,
  ): string {
    const { caller } = req.who;
    // Only what the policy's conditions can read goes into the key, so that, say, one
    // identity policy without conditions has one outcome for every role it allows.
    return `${f.id}|${req.action}|${match}|${f.readsKind ? caller.kind : ""}|${f.readsCallerAccount ? (caller.accountId ?? "-") : ""}|${f.readsResourceAccount ? (req.resourceAccount ?? "-") : ""}|${f.dependent ? `${caller.arn}|${req.who.anyPrincipal ? 1 : 0}` : ""}|${resource}`;
  }

  /** A resolver created only if some policy outcome is not cached yet. */
  resolverFor(
    who: AssumingPrincipal,
    action: string,
    resource: string,
    resourceAccount: string | undefined,
  ): KeyResolver {
    if (resource !== this.currentTarget) {
      this.currentTarget = resource;
      this.perTarget = new Map();
    }
    let resolve: KeyResolver | undefined;
    return (key) => {
      if (who.anyPrincipal && isPrincipalKey(key)) return UNKNOWN;
      resolve ??= createKeyResolver(
        this.model,
        {
          principal: who.caller.arn,
          action,
          resource,
          ...(this.options.context && { context: this.options.context }),
          ...(this.options.missingKeys && { missingKeys: this.options.missingKeys }),
        },
        who.caller,
        who.record,
        resourceAccount,
      );
      return resolve(key);
    };
  }

  get(key: string): PolicySetOutcome | undefined {
    return key.endsWith("|") ? this.shared.get(key) : this.perTarget.get(key);
  }

  set(key: string, outcome: PolicySetOutcome): void {
    if (!key.endsWith("|")) {
      this.perTarget.set(key, outcome);
      return;
    }
    if (this.shared.size >= SHARED_LIMIT) this.shared.clear();
    this.shared.set(key, outcome);
  }
}
