import type { AuthorizationRequest } from "../authorize/authorization-request.ts";
import type { Policy } from "../policy/policy-types.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccountSnapshot } from "../snapshot/account-snapshot.ts";
import { createAccountModel } from "../snapshot/create-account-model.ts";
import { AccessEvaluator } from "./access-evaluator.ts";
import { ActionIndex } from "./action-index.ts";
import type {
  AccountAnalysis,
  GrantSource,
  PrincipalAccessSummary,
  PrincipalRow,
  ResourceAccessSummary,
} from "./analysis-types.ts";
import { accessAt } from "./decision-at.ts";
import { describeResource } from "./describe-resource.ts";
import { namedPrincipals } from "./external-principals.ts";
import { GrantNames } from "./grant-names.ts";
import { ownedResources } from "./owned-resources.ts";
import { groupPrincipals, policySetKey } from "./principal-groups.ts";
import {
  type CapabilityGrant,
  type PolicySetSummary,
  principalResolver,
  scopedGrants,
  sourceFinder,
  summarizePolicySet,
} from "./summarize-policy-set.ts";
import { describeResourceRow, summarizeResources } from "./summarize-resources.ts";

export interface AnalyzeOptions {
  /**
   * Report only the principals and resources of these accounts (default: every account
   * given). Principals of every account still count in resource summaries.
   */
  accounts?: readonly string[];
  /**
   * Request keys to assume for every request, e.g. `{ "aws:SecureTransport": true }` so
   * that the usual "deny unless TLS" bucket statements do not make S3 access conditional.
   * `authorize` gives the same answers when called with the same `context`.
   */
  context?: AuthorizationRequest["context"];
  /** A prebuilt action index, to share the catalogue expansion between analyses. */
  actionIndex?: ActionIndex;
  /**
   * Analyse only these principals and resources (`changeScope`): `principals` and their access
   * rows; `resources` and every principal's access to them. The rows are those of the whole
   * analysis (an event step replaces them in the previous results).
   */
  scope?: { principals: ReadonlySet<string>; resources: ReadonlySet<string> };
}

let defaultIndex: ActionIndex | undefined;

/** The catalogue index is pure data; build it once per process. */
export function sharedIndex(): ActionIndex {
  defaultIndex ??= new ActionIndex();
  return defaultIndex;
}

/**
 * Whole-account analysis without enumerating principal × action × resource: principals
 * that share an effective policy set are evaluated once, each over every catalogue
 * action at once (bit sets), with each action pattern expanded once.
 */
export function analyzeAccount(
  input: AccountModel | AccountSnapshot | readonly AccountSnapshot[],
  options: AnalyzeOptions = {},
): AccountAnalysis {
  const model = isModel(input) ? input : createAccountModel(input);
  const index = options.actionIndex ?? sharedIndex();
  const evaluator = new AccessEvaluator(model, index, options.context);
  const wanted = options.accounts ? new Set(options.accounts) : undefined;
  const scope = options.scope;
  const records = [...model.principals.values()].filter(
    (p) => (!wanted || wanted.has(p.accountId)) && (!scope || scope.principals.has(p.arn)),
  );
  const groups = groupPrincipals(records, (r) => policySetKey(model, evaluator.ids, index, r));
  const names = new GrantNames(evaluator.ids);
  const summaries = new Map<string, PolicySetSummary>();
  const groupOf = new Map<string, string>();
  for (const [key, members] of groups) {
    summaries.set(
      key,
      summarizePolicySet(model, evaluator, index, members[0] as PrincipalRecord, names),
    );
    for (const m of members) groupOf.set(m.arn, key);
  }
  const summaryOf = (arn: string) => summaries.get(groupOf.get(arn) ?? "");
  /** Resource-scoped grants re-evaluated for a member that a governing resource policy names (or may treat differently). */
  const namedCache = new Map<Policy, Set<string>>();
  const namedOf = (policy: Policy) => {
    let named = namedCache.get(policy);
    if (!named) {
      named = namedPrincipals(policy);
      namedCache.set(policy, named);
    }
    return named;
  };
  const memberSpecificGrants = (
    summary: PolicySetSummary,
    member: PrincipalRecord,
  ): CapabilityGrant[] | undefined => {
    if (summary.rep === member || summary.governed.length === 0) return undefined;
    // A policy naming the member, or the representative (whose grants the others would
    // otherwise inherit), treats the two differently.
    const { rep } = summary;
    const differs = summary.governed.some(({ policy }) => {
      const named = namedOf(policy);
      return (
        named.has(member.arn) ||
        named.has(member.id) ||
        named.has(rep.arn) ||
        named.has(rep.id) ||
        evaluator.ids.isDependent(policy.statements)
      );
    });
    if (!differs) return undefined;
    const resolve = principalResolver(model, member, options.context);
    return summary.governed.flatMap(({ literal, window, policy }) => {
      const set = evaluator.evaluatePrincipal(member, literal, window);
      return scopedGrants(
        index,
        set,
        window,
        literal,
        summary.serviceWide,
        sourceFinder(index, member, set, window, literal, resolve, names, policy),
      ).map((g) => ({ ...g, window }));
    });
  };

  const grantsKeeper = new SummaryGrants(
    summaries,
    groups,
    (rep) => summarizePolicySet(model, evaluator, index, rep, names),
    () => principalRows(records, summaryOf, memberSpecificGrants, names),
  );

  const principals: PrincipalRow[] = records.map((r) => {
    const summary = summaryOf(r.arn);
    return {
      principalArn: r.arn,
      principalName: r.name,
      principalType: r.kind === "user" ? "IAMUser" : "IAMRole",
      accountId: r.accountId,
      iamAdmin: summary?.iamAdmin ?? "no",
      groupArns: r.groupArns,
      ...(r.permissionsBoundary && { permissionsBoundaryArn: r.permissionsBoundary.id }),
      tags: r.tags,
      // Computed on first read, from the policy set's summary.
      iamAdminGrantedBy: summary ? names.sourcesFor(summary.rep, r, summary.iamAdminSources) : [],
      iamAdminActions: summary?.iamAdminActions ?? [],
    };
  });
  const resourceRecords = ownedResources(model).filter(
    (r) =>
      (!wanted || (r.accountId !== undefined && wanted.has(r.accountId))) &&
      (!scope || scope.resources.has(r.resourceArn)),
  );
  return {
    principals,
    resources: resourceRecords.map(describeResourceRow),
    principalAccessSummaries: () => grantsKeeper.rows(),
    resourceAccessSummaries: () =>
      summarizeResources(evaluator, {
        principals: [...model.principals.values()],
        resources: resourceRecords,
        names,
      }),
    accessOf(principalArn, action, resource) {
      const record = model.principals.get(principalArn);
      const i = index.indexOf(action);
      if (!record || i === undefined) return undefined;
      const window = index.windows.get(index.actions[i]?.prefix ?? "");
      if (!window) return undefined;
      const summary = summaryOf(principalArn);
      const shared =
        summary &&
        (summary.rep === record || !summary.governed.some((g) => g.literal === resource));
      const whole = shared && resource === "*" ? summary.sets.get("*|*") : undefined;
      if (whole) return accessAt(whole, index.fullWindow, i);
      const cached = shared ? summary.sets.get(`${window.prefix}|${resource}`) : undefined;
      return accessAt(cached ?? evaluator.evaluatePrincipal(record, resource, window), window, i);
    },
    issues: model.issues,
    stats: {
      principals: records.length,
      policySets: groups.size,
      resources: resourceRecords.length,
      actionPatternsExpanded: index.patternsExpanded,
      policyLayersComputed: evaluator.layersComputed,
    },
  };
}

/**
 * What `principals` reach on the account's resources other than `except`: the rows of those
 * principals that a whole analysis's `resourceAccessSummaries` gives, resource by resource.
 * An event step compares them before and after a change to find the resources it must rewrite.
 */
export function* principalReach(
  model: AccountModel,
  principals: ReadonlySet<string>,
  except: ReadonlySet<string>,
  options: Omit<AnalyzeOptions, "scope"> & {
    /** Only the resources of these services (`reachPrefixes`); default: every service's. */
    prefixes?: ReadonlySet<string>;
  } = {},
): Generator<ResourceAccessSummary> {
  const index = options.actionIndex ?? sharedIndex();
  const evaluator = new AccessEvaluator(model, index, options.context);
  const wanted = options.accounts ? new Set(options.accounts) : undefined;
  const records = [...model.principals.values()].filter((p) => principals.has(p.arn));
  if (records.length === 0) return;
  const resources = ownedResources(model).filter(
    (r) =>
      (!wanted || (r.accountId !== undefined && wanted.has(r.accountId))) &&
      !except.has(r.resourceArn) &&
      (!options.prefixes || options.prefixes.has(describeResource(r).prefix.toLowerCase())),
  );
  const names = new GrantNames(evaluator.ids);
  for (const row of summarizeResources(evaluator, { principals: records, resources, names }))
    if (principals.has(row.principal)) yield row;
}

function isModel(input: unknown): input is AccountModel {
  return (
    typeof input === "object" &&
    input !== null &&
    "principals" in input &&
    (input as AccountModel).principals instanceof Map
  );
}

/**
 * The policy sets' grants are the principal-access rows before they are named: the large
 * account's 1.2 M of them held 100 MB through the rest of the analysis, their decision sets
 * 60 MB more (in and outside the heap). Both are let go once a pass over the principal-access
 * rows has ended with no other pass under way (the reports read them once, before the
 * resource-access rows), and made again should another pass begin.
 */
class SummaryGrants {
  #passes = 0;
  #released = false;

  constructor(
    private readonly summaries: Map<string, PolicySetSummary>,
    private readonly groups: ReadonlyMap<string, readonly PrincipalRecord[]>,
    private readonly summarize: (rep: PrincipalRecord) => PolicySetSummary,
    private readonly principalRows: () => Generator<PrincipalAccessSummary>,
  ) {}

  /** One pass over the principal-access rows. */
  *rows(): Generator<PrincipalAccessSummary> {
    if (this.#released) this.#restore();
    this.#passes++;
    let ended = false;
    try {
      yield* this.principalRows();
      ended = true;
    } finally {
      this.#passes--;
      if (ended && this.#passes === 0) this.#release();
    }
  }

  #release(): void {
    for (const summary of this.summaries.values()) {
      summary.grants = [];
      summary.serviceWide = new Map();
      // `accessOf` evaluates what it no longer finds here.
      summary.sets = new Map();
    }
    this.#released = true;
  }

  #restore(): void {
    for (const [key, members] of this.groups) {
      const summary = this.summaries.get(key);
      if (!summary) continue;
      const again = this.summarize(members[0] as PrincipalRecord);
      summary.grants = again.grants;
      summary.serviceWide = again.serviceWide;
      summary.sets = again.sets;
    }
    this.#released = false;
  }
}

function* principalRows(
  records: readonly PrincipalRecord[],
  summaryOf: (arn: string) => PolicySetSummary | undefined,
  memberSpecificGrants: (
    summary: PolicySetSummary,
    member: PrincipalRecord,
  ) => CapabilityGrant[] | undefined,
  names: GrantNames,
): Generator<PrincipalAccessSummary> {
  for (const r of records) {
    const summary = summaryOf(r.arn);
    if (!summary) continue;
    const principalType = r.kind === "user" ? "IAMUser" : "IAMRole";
    const own = memberSpecificGrants(summary, r);
    const grants = own ? [...summary.grants.filter((x) => !x.window), ...own] : summary.grants;
    // Per policy set: a member that names its policies as the representative does reads
    // the lists' own names; another reads one array per naming; member-specific grants
    // come from the member's own policies.
    const alike = names.namesAlike(summary.rep, r);
    const named = own || alike ? undefined : names.sourcesOfEach(summary.rep, r, summary.grants);
    for (let j = 0; j < grants.length; j++) {
      const g = grants[j] as CapabilityGrant;
      yield {
        principalArn: r.arn,
        principalName: r.name,
        principalType,
        service: g.service,
        capability: g.capability,
        resourceArn: g.resource,
        conditional: g.conditional,
        exceptResources: g.exceptResources,
        grantedBy: named
          ? (named[j] as readonly GrantSource[])
          : alike || g.window
            ? names.convert(g.sources)
            : names.sourcesFor(summary.rep, r, g.sources, false),
      };
    }
  }
}
