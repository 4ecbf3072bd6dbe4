import type { Algebra } from "../logic/algebra.ts";
import type { Policy, Statement } from "../policy/policy-types.ts";
import { isAuthenticatedPrincipal } from "./always-allowed.ts";
import {
  type ComposedDecision,
  composeDecision,
  type DecisionLayers,
  type LayerOutcome,
  ownedByCallerOr,
} from "./compose-decision.ts";
import type { PrincipalMatch } from "./match-principal.ts";
import type { OrganizationScope } from "./organization-scope.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

/**
 * The layer evaluation of AWS's policy logic, written once over any three-valued algebra
 * (`Algebra`): `authorize` and the access graph run it on condition formulas, `analyzeAccount`
 * on action sets (`TriSet`), so they agree by construction. A policy set's outcome sorts its
 * statements into deny and allow by how they name the requester (`policySetOutcome`); the
 * request's decision intersects identity, boundary, session, SCP and RCP layers, unites or
 * intersects the resource policy's grants and lets an explicit deny win (`decideRequest`,
 * with `composeDecision`'s rules).
 */

/** How a set of policies of one type is read. */
export interface PolicySetOptions {
  /**
   * Resource-based policies: a statement applies only to the principals its Principal
   * element names. Identity policies, boundaries, session policies, SCPs and RCPs: false.
   */
  resourceBased: boolean;
}

/** How a policy set's statements are read against one request. */
export interface StatementReading<T> {
  /**
   * Where `statement` (the `index`th of `policy`) applies to the request: `T`, or `undefined`
   * when it surely does not. Called only for statements whose Principal names the requester.
   */
  appliesWhere(policy: Policy, statement: Statement, index: number): T | undefined;
  /**
   * Resource-based policies: how the statement's Principal element names the requester
   * (`none`: the statement does not concern it). Omitted for identity policies, boundaries,
   * session policies, SCPs and RCPs, whose statements all concern the requester (`direct`).
   */
  principalMatch?(policy: Policy, statement: Statement, index: number): PrincipalMatch;
}

/** Outcome of a set of policies of one type: deny and allow, allow split by how it names the requester. */
export function policySetOutcome<T>(
  alg: Algebra<T>,
  policies: readonly Policy[],
  reading: StatementReading<T>,
): LayerOutcome<T> {
  const deny: T[] = [];
  const allowDirect: T[] = [];
  const allowRole: T[] = [];
  const allowAccount: T[] = [];
  for (const policy of policies) {
    const { statements } = policy;
    for (let i = 0; i < statements.length; i++) {
      const statement = statements[i] as Statement;
      const match = reading.principalMatch
        ? reading.principalMatch(policy, statement, i)
        : "direct";
      if (match === "none") continue;
      const applies = reading.appliesWhere(policy, statement, i);
      if (applies === undefined) continue;
      if (statement.effect === "Deny") deny.push(applies);
      else if (match === "direct") allowDirect.push(applies);
      else if (match === "role") allowRole.push(applies);
      else allowAccount.push(applies);
    }
  }
  const direct = alg.or(...allowDirect);
  const role = alg.or(...allowRole);
  const account = alg.or(...allowAccount);
  return {
    deny: alg.or(...deny),
    allow: alg.or(direct, role, account),
    allowDirect: direct,
    allowRole: role,
    allowAccount: account,
  };
}

/** The outcome of no policy at all. */
export function emptyOutcome<T>(alg: Algebra<T>): LayerOutcome<T> {
  return {
    deny: alg.FALSE,
    allow: alg.FALSE,
    allowDirect: alg.FALSE,
    allowRole: alg.FALSE,
    allowAccount: alg.FALSE,
  };
}

/** The outcome of several policies from their outcomes one by one (as one policy set would give). */
export function unionOutcomes<T>(
  alg: Algebra<T>,
  parts: readonly LayerOutcome<T>[],
): LayerOutcome<T> {
  return {
    deny: alg.or(...parts.map((p) => p.deny)),
    allow: alg.or(...parts.map((p) => p.allow)),
    allowDirect: alg.or(...parts.map((p) => p.allowDirect)),
    allowRole: alg.or(...parts.map((p) => p.allowRole)),
    allowAccount: alg.or(...parts.map((p) => p.allowAccount)),
  };
}

/** SCPs or RCPs along an organization path: any level may deny, every level must allow. */
export interface LevelsOutcome<T> {
  deny: T;
  /** One entry per level of the path, root first. */
  allow: T[];
}

export function levelsOutcome<T>(
  alg: Algebra<T>,
  levels: readonly LayerOutcome<T>[],
): LevelsOutcome<T> {
  return { deny: alg.or(...levels.map((l) => l.deny)), allow: levels.map((l) => l.allow) };
}

/** Each policy type's outcome for one request, and the facts the decision rules need. */
export interface RequestLayers<T> {
  requester: RequestingPrincipal;
  /** Which organization policies apply and how the accounts relate (`organizationScope`). */
  scope: Pick<OrganizationScope, "callerIsIam" | "sameAccount">;
  /** SCP levels of the requester's account (no levels when SCPs do not apply). */
  scp: LevelsOutcome<T>;
  /** RCP levels of the resource's account (no levels when RCPs do not apply). */
  rcp: LevelsOutcome<T>;
  /** Where RCPs have a say (the services that support them); omitted: wherever given. */
  rcpCovers?: T;
  identity: LayerOutcome<T>;
  boundary?: LayerOutcome<T>;
  /** The assumed-role session's session policies, when the request gives any. */
  session?: LayerOutcome<T>;
  resource: LayerOutcome<T>;
  /** For a requester outside the snapshots (`external`): what its own account's IAM allows. */
  outsideIdentityAllow: T;
  /** The resource's policy must allow even in the same account (role trust, KMS key policy). */
  mustAllow: boolean;
  /** A KMS key without a supplied key policy: the default one, which delegates to the account. */
  assumeDefaultKeyPolicy: boolean;
  /** A resource of unknown owner: where the requester's account owns it (`ownedByCallerOr`). */
  ownedByRequester?: T;
  /** Where AWS refuses the request to customers, whatever the policies (`aws-protected-resources.ts`). */
  refusedByAws?: T;
  /** Where no permission is needed (`always-allowed.ts`): allowed to any authenticated principal. */
  alwaysAllowed?: T;
}

export interface RequestDecision<T> {
  /** The layers `composeDecision` decided on (for explanations). */
  layers: DecisionLayers<T>;
  /** The policies' decision, with the ownership rule (for explanations). */
  byPolicies: ComposedDecision<T>;
  /** Allowed exactly where this holds: `byPolicies.final` less AWS's refusals, plus what needs no permission. */
  final: T;
}

/** The decision for one request from its layers' outcomes: AWS's evaluation logic, once. */
export function decideRequest<T>(alg: Algebra<T>, input: RequestLayers<T>): RequestDecision<T> {
  const { requester, rcpCovers } = input;
  let rcp = input.rcp;
  if (rcpCovers && rcp.allow.length > 0) {
    const uncovered = alg.not(rcpCovers);
    rcp = {
      deny: alg.and(rcp.deny, rcpCovers),
      allow: rcp.allow.map((allow) => alg.or(allow, uncovered)),
    };
  }
  // The account root needs no identity policy; a principal outside the snapshots has unseen ones.
  const identityAllow =
    requester.kind === "root"
      ? alg.TRUE
      : requester.kind === "external"
        ? input.outsideIdentityAllow
        : input.identity.allow;
  const layers: DecisionLayers<T> = {
    scpDeny: input.scp.deny,
    scpAllow: input.scp.allow,
    rcpDeny: rcp.deny,
    rcpAllow: rcp.allow,
    identityDeny: input.identity.deny,
    identityAllow,
    ...(input.boundary && { boundary: input.boundary }),
    ...(input.session && { session: input.session }),
    resource: input.resource,
    callerIsIam: input.scope.callerIsIam,
    sameAccount: input.scope.sameAccount,
    mustAllow: input.mustAllow,
    assumeDefaultKeyPolicy: input.assumeDefaultKeyPolicy,
  };
  const composed = composeDecision(alg, layers);
  const byPolicies = input.ownedByRequester
    ? ownedByCallerOr(alg, layers, composed, input.ownedByRequester)
    : composed;
  let final = byPolicies.final;
  if (input.refusedByAws) final = alg.and(final, alg.not(input.refusedByAws));
  if (input.alwaysAllowed && isAuthenticatedPrincipal(requester))
    final = alg.or(final, input.alwaysAllowed);
  return { layers, byPolicies, final };
}
