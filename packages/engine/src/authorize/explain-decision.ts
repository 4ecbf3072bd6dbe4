import type { Formula } from "../logic/formula.ts";
import type { PolicyType } from "../policy/policy-types.ts";
import type { ComposedDecision, DecisionLayers } from "./compose-decision.ts";

/** The rules that decided, in words, for the explanation. */
export function describeRules(layers: DecisionLayers<Formula>, notes: string[]): string[] {
  const out = [...notes];
  if (!layers.callerIsIam)
    out.push("caller has no identity policies: only a resource-based policy can grant");
  else if (!layers.sameAccount)
    out.push("cross-account: both the identity side and the resource's policy must allow");
  else if (layers.mustAllow || layers.assumeDefaultKeyPolicy)
    out.push("same account: the resource's own policy must allow (role trust / KMS key policy)");
  else out.push("same account: identity-based and resource-based permissions are united");
  if (layers.session)
    out.push(
      "session policies: identity grants, grants to the role ARN and delegations to the account hold only where a session policy allows too; grants to the session ARN are not limited",
    );
  if (layers.assumeDefaultKeyPolicy)
    out.push(
      "no key policy supplied: assumed the default key policy, which delegates to IAM in the key's account",
    );
  return out;
}

/** For an implicit deny: the first policy type, in AWS's order, that did not allow. */
export function findStopper(
  layers: DecisionLayers<Formula>,
  decision: ComposedDecision<Formula>,
  resourceType: PolicyType,
): PolicyType {
  if (layers.rcpAllow.some((f) => f.kind === "false")) return "rcp";
  if (layers.scpAllow.some((f) => f.kind === "false")) return "scp";
  if (!layers.callerIsIam) return resourceType;
  const resourceMustAllow = !layers.sameAccount || layers.mustAllow;
  if (resourceMustAllow && decision.resourceSide.kind === "false") return resourceType;
  // The boundary stopped it when something it limits (identity policies or a role-ARN grant) did allow.
  const boundaryFalse = layers.boundary?.allow.kind === "false";
  const limitedAllow =
    layers.identityAllow.kind !== "false" || layers.resource.allowRole.kind !== "false";
  if (boundaryFalse && limitedAllow) return "permissions-boundary";
  return layers.session?.allow.kind === "false" && limitedAllow ? "session" : "identity";
}
