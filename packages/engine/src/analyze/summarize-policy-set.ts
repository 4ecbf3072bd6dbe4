import type { Capability } from "@sightline/capabilities";
import type { AuthorizationRequest } from "../authorize/authorization-request.ts";
import { findResourcePolicy } from "../authorize/find-resource-policy.ts";
import { matchStatementPrincipal } from "../authorize/match-principal.ts";
import { createKeyResolver } from "../authorize/request-context.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import { principalOfRecord } from "../authorize/resolve-requesting-principal.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import { substituteVariables } from "../policy/policy-variables.ts";
import { matchesWildcard } from "../policy/wildcard.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessEvaluator } from "./access-evaluator.ts";
import type { ActionIndex, PrefixWindow } from "./action-index.ts";
import { hasBit } from "./bits.ts";
import { type CapabilityLevel, capabilityLevels, namesCapability } from "./capability-levels.ts";
import { GrantNames } from "./grant-names.ts";
import {
  appliesTo,
  GrantCandidates,
  type GrantList,
  mergeGrantingPolicies,
} from "./grant-sources.ts";
import type { TriSet } from "./tri-set.ts";

export interface CapabilityGrant {
  /** Set on resource-scoped grants whose literal has a resource-based policy (may differ per principal). */
  window?: PrefixWindow;
  service: string;
  capability: Capability;
  /** "" for service-wide. */
  resource: string;
  conditional: boolean;
  exceptResources: readonly string[];
  /** The policies (and statements) that give it: identity policies, and the resource policy governing `resource` (`grant-sources.ts`). */
  sources: GrantList;
}

/** What one effective policy set gives, computed once for all principals that share it. */
export interface PolicySetSummary {
  rep: PrincipalRecord;
  grants: CapabilityGrant[];
  /** Service-wide grants by `wideKey(window, level)` (service and capability). */
  serviceWide: ReadonlyMap<number, CapabilityGrant>;
  /** Resource-scoped literals governed by a resource-based policy: re-checked per principal when it names them. */
  governed: { literal: string; window: PrefixWindow; policy: Policy }[];
  iamAdmin: "yes" | "conditional" | "no";
  /** IAM admins: the policies that give administer-resource on IAM, and its actions. */
  /** IAM admins: the policies that give administer-resource on IAM, and its actions. */
  iamAdminSources: GrantList;
  iamAdminActions: readonly string[];
  /** Decision sets by `prefix|resource` ("*|*" for the full catalogue on `*`). */
  sets: Map<string, TriSet>;
}

/**
 * Service-wide access is the decision on the resource `*` for every catalogue action at
 * once; resource-scoped access is the decision on each specific Resource pattern of an
 * Allow, evaluated as that literal string (so a Deny on a covering pattern removes it).
 */
export function summarizePolicySet(
  model: AccountModel,
  evaluator: AccessEvaluator,
  index: ActionIndex,
  rep: PrincipalRecord,
  /** Shares statement applicability on `*` between policy sets (one per analysis). */
  names = new GrantNames(evaluator.ids),
): PolicySetSummary {
  const sets = new Map<string, TriSet>();
  const wide = new Map<number, CapabilityGrant>();
  const resolve = principalResolver(model, rep, evaluator.context);
  const appliesOnStar = appliesTo(["*"], resolve, names.sharedApplicability(["*"]));
  const addWide = (set: TriSet, offsetWord: number, window: PrefixWindow) => {
    let candidates: GrantCandidates | undefined;
    for (const level of capabilityLevels(index, set, offsetWord, window)) {
      const key = wideKey(window, level);
      const existing = wide.get(key);
      if (!existing || (existing.conditional && !level.conditional)) {
        candidates ??= GrantCandidates.ofPolicies(
          names,
          index,
          rep.identityPolicies,
          set,
          offsetWord,
          window,
          appliesOnStar,
        );
        wide.set(key, {
          service: window.service,
          capability: level.capability,
          resource: "",
          conditional: level.conditional,
          exceptResources: NO_EXCEPTIONS,
          sources: candidates.granting(level.capability, names),
        });
      }
    }
  };
  // Only services an Allow names can be granted; evaluating those alone keeps the sets small.
  const touched = grantingWindows(index, rep);
  if (touched.length > WINDOW_LIMIT) {
    const star = evaluator.evaluatePrincipal(rep, "*", index.fullWindow);
    sets.set("*|*", star);
    for (const window of index.windows.values()) addWide(star, 0, window);
  } else {
    for (const window of touched) {
      const set = evaluator.evaluatePrincipal(rep, "*", window);
      sets.set(`${window.prefix}|*`, set);
      addWide(set, window.firstWord, window);
    }
  }
  addCarveOuts(model, index, rep, wide);
  const grants = [...wide.values()];
  const scoped = new Map<string, CapabilityGrant>();
  const governed: PolicySetSummary["governed"] = [];
  for (const { statement, literal } of specificAllows(rep, resolve)) {
    const actions = index.actionSet(statement);
    for (const window of index.windowsOf(actions)) {
      const setKey = `${window.prefix}|${literal}`;
      if (sets.has(setKey)) continue;
      const set = evaluator.evaluatePrincipal(rep, literal, window);
      sets.set(setKey, set);
      const policy = findResourcePolicy(model, `${window.prefix}:*`, literal).record?.policy;
      if (policy) governed.push({ literal, window, policy });
      const finder = sourceFinder(index, rep, set, window, literal, resolve, names, policy);
      for (const grant of scopedGrants(index, set, window, literal, wide, finder)) {
        const key = `${grant.service}|${grant.capability}|${literal}`;
        const existing = scoped.get(key);
        if (!existing || (existing.conditional && !grant.conditional))
          scoped.set(key, policy ? { ...grant, window } : grant);
      }
    }
  }
  grants.push(...scoped.values());
  const admin = iamAdminGrants(index, rep, grants);
  return {
    rep,
    grants,
    serviceWide: wide,
    governed,
    iamAdmin: admin.length === 0 ? "no" : admin.some((g) => !g.conditional) ? "yes" : "conditional",
    iamAdminSources: mergeGrantingPolicies(admin.map((g) => g.sources)),
    iamAdminActions: iamAdminActions(index, admin, sets),
    sets,
  };
}

/** Resolves the principal's own keys (policy variables in Resource elements). */
export function principalResolver(
  model: AccountModel,
  rep: PrincipalRecord,
  context: AuthorizationRequest["context"],
) {
  const { caller } = principalOfRecord(rep, undefined);
  return createKeyResolver(
    model,
    { principal: rep.arn, action: "", resource: "*", ...(context && { context }) },
    caller,
    rep,
    undefined,
  );
}

/**
 * What gives each capability of a decision set on `literal`: the principal's identity policies,
 * and the resource-based policy governing the literal (`governing`), its Allow statements that
 * name the principal. Within one account either may allow (a KMS key's policy or a role's trust
 * must); across accounts both must: every policy whose Allow gives the capability is listed.
 */
export function sourceFinder(
  index: ActionIndex,
  record: PrincipalRecord,
  set: TriSet,
  window: PrefixWindow,
  literal: string,
  resolve: ReturnType<typeof principalResolver>,
  names: GrantNames,
  governing?: Policy,
): (capability: Capability) => GrantList {
  let candidates: GrantCandidates | undefined;
  return (capability) => {
    candidates ??= GrantCandidates.ofPolicies(
      names,
      index,
      governing ? [...record.identityPolicies, governing] : record.identityPolicies,
      set,
      window.firstWord,
      window,
      governing
        ? namingCaller(governing, record, appliesTo([literal], resolve))
        : appliesTo([literal], resolve),
    );
    return candidates.granting(capability, names);
  };
}

/**
 * `applies`, and for the statements of the resource-based policy `governing`, only those whose
 * Principal names `record` (as `summarizeResources` decides for the resources' rows).
 */
function namingCaller(
  governing: Policy,
  record: PrincipalRecord,
  applies: (policy: Policy, statement: Statement) => boolean,
): (policy: Policy, statement: Statement) => boolean {
  let caller: RequestingPrincipal | undefined;
  return (policy, statement) => {
    if (policy !== governing) return applies(policy, statement);
    caller ??= principalOfRecord(record, undefined).caller;
    return matchStatementPrincipal(statement, caller) !== "none" && applies(policy, statement);
  };
}

/** The IAM administer-resource actions the admin grants' decision sets allow. */
function iamAdminActions(
  index: ActionIndex,
  admin: readonly CapabilityGrant[],
  sets: ReadonlyMap<string, TriSet>,
): string[] {
  const window = index.windows.get("iam");
  if (!window || admin.length === 0) return [];
  const cap = index.capabilityMask("administer-resource");
  const found = new Set<string>();
  for (const g of admin) {
    const star = g.resource === "" ? sets.get("*|*") : undefined;
    const set = star ?? sets.get(`iam|${g.resource || "*"}`);
    if (!set || set.maybe === 0) continue;
    const offset = star ? 0 : window.firstWord;
    for (let i = window.start; i < window.end; i++) {
      if (!hasBit(cap, i)) continue;
      if (set.maybe !== 1 && !hasBit(set.maybe, i - offset * 32)) continue;
      found.add(index.actions[i]?.action ?? "");
    }
  }
  found.delete("");
  return [...found].sort();
}

/**
 * administer-resource on IAM, service-wide or on a pattern that covers every IAM
 * resource of the principal's account (such as `arn:aws:iam::123456789012:*`).
 */
function iamAdminGrants(
  index: ActionIndex,
  rep: PrincipalRecord,
  grants: readonly CapabilityGrant[],
): CapabilityGrant[] {
  const iam = index.windows.get("iam")?.service ?? "IAM";
  const probes = ["user", "role", "group", "policy"].map(
    (type) => `arn:${rep.partition}:iam::${rep.accountId}:${type}/\u0001any`,
  );
  const covers = (g: CapabilityGrant) =>
    g.resource === "" || probes.every((arn) => matchesWildcard(g.resource, arn, false));
  return grants.filter(
    (g) => g.service === iam && g.capability === "administer-resource" && covers(g),
  );
}

/** Capabilities on a specific resource that service-wide access does not already give. */
export function scopedGrants(
  index: ActionIndex,
  set: TriSet,
  window: PrefixWindow,
  literal: string,
  wide: ReadonlyMap<number, CapabilityGrant>,
  /** What gives each capability (`sourceFinder`). */
  sourcesOf: (capability: Capability) => GrantList,
): CapabilityGrant[] {
  const out: CapabilityGrant[] = [];
  for (const level of capabilityLevels(index, set, window.firstWord, window)) {
    const broad = wide.get(wideKey(window, level));
    if (broad && (!broad.conditional || level.conditional)) continue;
    out.push({
      service: window.service,
      capability: level.capability,
      resource: literal,
      conditional: level.conditional,
      exceptResources: NO_EXCEPTIONS,
      sources: sourcesOf(level.capability),
    });
  }
  return out;
}

/** Most grants have no exceptions: one shared empty list (`addCarveOuts` replaces it). */
const NO_EXCEPTIONS: readonly string[] = Object.freeze([]);

/** The key of a service-wide grant: its service and capability, as one number. */
function wideKey(window: PrefixWindow, level: CapabilityLevel): number {
  return window.serviceId * 8 + level.capabilityIndex;
}

/** Beyond this many services, one evaluation over the whole catalogue is cheaper. */
const WINDOW_LIMIT = 40;

/** Services in which some identity-policy Allow names an action (cached on the index). */
function grantingWindows(index: ActionIndex, rep: PrincipalRecord): PrefixWindow[] {
  const found = new Set<PrefixWindow>();
  for (const policy of rep.identityPolicies) {
    for (const w of index.grantingWindowsOf(policy.statements)) found.add(w);
    if (found.size > WINDOW_LIMIT) break;
  }
  return [...found];
}

/** Allow statements' specific Resource patterns, with the principal's variables filled in. */
function* specificAllows(
  rep: PrincipalRecord,
  resolve: ReturnType<typeof principalResolver>,
): Generator<{ statement: Statement; literal: string }> {
  for (const policy of rep.identityPolicies) {
    for (const statement of policy.statements) {
      if (statement.effect !== "Allow" || !statement.resource) continue;
      for (const pattern of statement.resource) {
        let literal = pattern;
        if (pattern.includes("${")) {
          const sub = substituteVariables(pattern, resolve, true);
          if (sub.state !== "resolved") continue;
          literal = sub.literal;
        }
        if (matchesWildcard(literal, "*", false)) continue;
        yield { statement, literal };
      }
    }
  }
}

/** Deny statements on specific resources leave service-wide access standing but are listed as exceptions. */
function addCarveOuts(
  model: AccountModel,
  index: ActionIndex,
  rep: PrincipalRecord,
  wide: Map<number, CapabilityGrant>,
): void {
  const account = model.accounts.get(rep.accountId);
  const policies: Policy[] = [
    ...rep.identityPolicies,
    ...(rep.permissionsBoundary ? [rep.permissionsBoundary] : []),
    ...(account?.serviceControlPolicies.flat() ?? []),
  ];
  for (const policy of policies) {
    for (const statement of policy.statements) {
      if (statement.effect !== "Deny" || !statement.resource) continue;
      const specific = statement.resource.filter((r) => !matchesWildcard(r, "*", false));
      if (specific.length === 0) continue;
      const actions = index.actionSet(statement);
      for (const window of index.windowsOf(actions)) {
        for (const grant of wide.values()) {
          if (
            grant.service !== window.service ||
            !namesCapability(index, actions, grant.capability, window)
          )
            continue;
          grant.exceptResources = [...new Set([...grant.exceptResources, ...specific])];
        }
      }
    }
  }
}
