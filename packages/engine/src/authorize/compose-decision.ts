import type { Algebra } from "../logic/algebra.ts";

/** Outcome of one policy type, split by how a resource policy named the caller. */
export interface LayerOutcome<T> {
  deny: T;
  allow: T;
  /** Grants to the user or session itself (or `*`): not limited by the boundary. */
  allowDirect: T;
  /** Grants to the role ARN: limited by the role's permissions boundary. */
  allowRole: T;
  /** Grants to the caller's account: a delegation that needs an identity-policy Allow. */
  allowAccount: T;
}

export interface DecisionLayers<T> {
  scpDeny: T;
  /** One entry per level of the caller account's path (empty when SCPs do not apply). */
  scpAllow: T[];
  rcpDeny: T;
  rcpAllow: T[];
  identityDeny: T;
  /** Identity-based allow (TRUE for the account root, an unknown for outside accounts). */
  identityAllow: T;
  boundary?: { deny: T; allow: T };
  /**
   * An assumed-role session's session policies, when the request gives any: like the
   * boundary, they cap identity grants, role-ARN grants and account delegations, but
   * not grants that name the session itself.
   */
  session?: { deny: T; allow: T };
  resource: LayerOutcome<T>;
  /** IAM users, roles and roots have identity policies; services and anonymous callers do not. */
  callerIsIam: boolean;
  sameAccount: boolean;
  /** Role trust policies (for STS) and KMS key policies must allow even in the same account. */
  mustAllow: boolean;
  /** A KMS key without a supplied key policy: the default one, which delegates to the account. */
  assumeDefaultKeyPolicy: boolean;
}

export interface ComposedDecision<T> {
  final: T;
  deny: T;
  grant: T;
  identitySide: T;
  resourceSide: T;
}

/**
 * AWS's evaluation logic, written once over any three-valued algebra: explicit deny wins,
 * every RCP and SCP level must allow, then the grant (same-account union, cross-account
 * intersection, trust and key policies that must allow) as in `LayerOutcome`'s fields.
 */
export function composeDecision<T>(
  alg: Algebra<T>,
  layers: DecisionLayers<T>,
): ComposedDecision<T> {
  const { resource } = layers;
  const boundaryAllow = layers.boundary ? layers.boundary.allow : alg.TRUE;
  const sessionAllow = layers.session ? layers.session.allow : alg.TRUE;
  const deny = alg.or(
    layers.scpDeny,
    layers.rcpDeny,
    layers.identityDeny,
    layers.boundary?.deny ?? alg.FALSE,
    layers.session?.deny ?? alg.FALSE,
    resource.deny,
  );
  const identitySide = alg.and(layers.identityAllow, boundaryAllow, sessionAllow);
  const direct = alg.or(
    resource.allowDirect,
    alg.and(resource.allowRole, boundaryAllow, sessionAllow),
  );
  let grant: T;
  let resourceSide: T = resource.allow;
  if (!layers.callerIsIam) {
    grant = resource.allowDirect;
    resourceSide = resource.allowDirect;
  } else if (layers.sameAccount && (layers.mustAllow || layers.assumeDefaultKeyPolicy)) {
    const delegated = layers.assumeDefaultKeyPolicy ? alg.TRUE : resource.allowAccount;
    grant = alg.or(direct, alg.and(delegated, identitySide));
    resourceSide = alg.or(resource.allow, delegated);
  } else if (layers.sameAccount) {
    grant = alg.or(identitySide, direct);
  } else {
    resourceSide = layers.assumeDefaultKeyPolicy ? alg.FALSE : resource.allow;
    grant = alg.and(identitySide, resourceSide);
  }
  const final = alg.and(alg.not(deny), ...layers.rcpAllow, ...layers.scpAllow, grant);
  return { final, deny, grant, identitySide, resourceSide };
}

/**
 * A bucket whose account the snapshots do not name (no policy here, not in a bucket list) may
 * belong to anyone: the same-account answer holds only if the caller's account owns it
 * (`owned`), so the final decision is the cross-account one, or the same-account one on that
 * condition — never a cross-account allow by assumption. `decision` is composed from `layers`.
 */
export function ownedByCallerOr<T>(
  alg: Algebra<T>,
  layers: DecisionLayers<T>,
  decision: ComposedDecision<T>,
  owned: T,
): ComposedDecision<T> {
  if (!layers.sameAccount) return decision;
  const cross = composeDecision(alg, { ...layers, sameAccount: false });
  return { ...decision, final: alg.or(cross.final, alg.and(owned, decision.final)) };
}
