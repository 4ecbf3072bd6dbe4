import { and, FALSE, type Formula, or, TRUE } from "../logic/formula.ts";
import type { PolicyType } from "../policy/policy-types.ts";
import type { PolicySetOutcome } from "./evaluate-policies.ts";

export interface GrantInput {
  identity: Formula;
  boundary: Formula;
  resource: PolicySetOutcome;
  resourcePolicyType?: PolicyType;
  sameAccount: boolean;
  hasResourcePolicy: boolean;
  /** Role trust policies (for STS) and KMS key policies must allow even in the same account. */
  mustAllow: boolean;
  /** A KMS key without a supplied key policy: the default one, which delegates to the account. */
  assumeDefaultKeyPolicy: boolean;
  /** IAM users, roles and roots have identity policies; services and anonymous callers do not. */
  callerIsIam: boolean;
  notes: string[];
}

/**
 * The allow side before SCPs/RCPs/denies. A resource policy naming the user or the
 * session grants on its own in the same account; naming the role ARN it is still
 * limited by the boundary; naming the account it only delegates to IAM policies.
 */
export function decideGrant(input: GrantInput): { formula: Formula; stoppedBy?: PolicyType } {
  const { identity, boundary, resource } = input;
  const resourceType: PolicyType = input.resourcePolicyType ?? "resource";
  if (!input.callerIsIam) {
    input.notes.push("caller has no identity policies: only a resource-based policy can grant");
    return { formula: resource.allowDirect, stoppedBy: resourceType };
  }
  const identitySide = and(identity, boundary);
  const direct = or(resource.allowDirect, and(resource.allowRole, boundary));
  if (input.assumeDefaultKeyPolicy)
    input.notes.push(
      "no key policy supplied: assumed the default key policy, which delegates to IAM in the key's account",
    );
  if (input.sameAccount) {
    if (input.mustAllow || input.assumeDefaultKeyPolicy) {
      input.notes.push(
        "same account: the resource's own policy must allow (role trust / KMS key policy)",
      );
      const delegated = input.assumeDefaultKeyPolicy ? TRUE : resource.allowAccount;
      const formula = or(direct, and(delegated, identitySide));
      const resourceSilent = resource.allow.kind === "false" && !input.assumeDefaultKeyPolicy;
      return {
        formula,
        stoppedBy: resourceSilent
          ? resourceType
          : stoppedOnIdentitySide(identity, boundary, resource.allowRole),
      };
    }
    input.notes.push("same account: identity-based and resource-based permissions are united");
    return {
      formula: or(identitySide, direct),
      stoppedBy: stoppedOnIdentitySide(identity, boundary, resource.allowRole),
    };
  }
  input.notes.push("cross-account: both the identity side and the resource's policy must allow");
  const resourceSide = input.assumeDefaultKeyPolicy ? FALSE : resource.allow;
  const formula = and(identitySide, resourceSide);
  return {
    formula,
    stoppedBy:
      resourceSide.kind === "false"
        ? resourceType
        : stoppedOnIdentitySide(identity, boundary, resource.allowRole),
  };
}

/** The boundary stopped it when something it limits (identity policies or a role-ARN grant) did allow. */
function stoppedOnIdentitySide(
  identity: Formula,
  boundary: Formula,
  roleGrant: Formula,
): PolicyType {
  const limitedAllow = identity.kind !== "false" || roleGrant.kind !== "false";
  return boundary.kind === "false" && limitedAllow ? "permissions-boundary" : "identity";
}
