import { dependsOnPrincipal } from "../analyze/policy-traits.ts";
import { statementMatchesAction } from "../authorize/evaluate-statement.ts";
import type { Statement } from "../policy/policy-types.ts";

export interface Relevance {
  /** Some statement names the action: the others cannot change the decision. */
  relevant: boolean;
  /** Every statement naming the action matches any resource alike (`*`, or no Resource). */
  anyResource: boolean;
}

/** What the builder asks of a policy on every decision, worked out once per statement list. */
export interface PolicyFacts {
  /** Identity of the statement list (not its content): a cache key part. */
  id: number;
  /** Conditions or variables on the principal's name, ID, ARN or tags. */
  dependent: boolean;
  /**
   * The request facts the engine derives that its conditions read: the caller's kind
   * (`aws:PrincipalType`, …), its account (`aws:PrincipalAccount`, `aws:PrincipalOrgID`)
   * and the resource's account. A policy reading none has one outcome for every caller.
   */
  readsKind: boolean;
  readsCallerAccount: boolean;
  readsResourceAccount: boolean;
  /** sts:AssumeRole, asked on nearly every decision; other actions in `byAction`. */
  assume?: Relevance;
  byAction?: Map<string, Relevance>;
}

const KIND_KEYS = ["aws:principaltype", "aws:principalisawsservice", "aws:principalservicename"];
const CALLER_ACCOUNT_KEYS = ["aws:principalaccount", "aws:principalorgid"];

function reads(statements: readonly Statement[], keys: readonly string[]): boolean {
  return statements.some((s) => s.conditions.some((c) => keys.includes(c.key.toLowerCase())));
}

/**
 * Facts and relevance per statement list, for one build: plain maps that are dropped
 * with the build (module-level weak maps would outlive it and slow every GC).
 */
export class PolicyFactsCache {
  private readonly facts = new Map<readonly Statement[], PolicyFacts>();
  private nextId = 1;

  factsOf(statements: readonly Statement[]): PolicyFacts {
    let f = this.facts.get(statements);
    if (!f) {
      const dependent = dependsOnPrincipal(statements);
      // A principal-dependent policy is keyed by the caller's ARN: it reads everything.
      f = {
        id: this.nextId++,
        dependent,
        readsKind: dependent || reads(statements, KIND_KEYS),
        readsCallerAccount: dependent || reads(statements, CALLER_ACCOUNT_KEYS),
        readsResourceAccount: dependent || reads(statements, ["aws:resourceaccount"]),
      };
      this.facts.set(statements, f);
    }
    return f;
  }

  /**
   * How a policy's statements relate to one action. Policies that do not name it are left
   * out of the work, and the outcome of those that match every resource alike is shared by
   * all the roles a principal might assume.
   */
  relevanceOf(statements: readonly Statement[], action: string): Relevance {
    const f = this.factsOf(statements);
    const known = action === "sts:AssumeRole" ? f.assume : f.byAction?.get(action);
    if (known) return known;
    let relevant = false;
    let anyResource = true;
    for (const s of statements) {
      if (!statementMatchesAction(s, action)) continue;
      relevant = true;
      if (!matchesAnyResource(s)) anyResource = false;
    }
    const result = { relevant, anyResource };
    if (action === "sts:AssumeRole") f.assume = result;
    else {
      f.byAction ??= new Map();
      f.byAction.set(action, result);
    }
    return result;
  }
}

function matchesAnyResource(s: Statement): boolean {
  if (s.resource) return s.resource.includes("*");
  if (s.notResource) return s.notResource.includes("*");
  return true;
}
