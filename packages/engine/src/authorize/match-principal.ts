import { parseArn } from "../arn/parse-arn.ts";
import type { PrincipalSet, Statement } from "../policy/policy-types.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

/**
 * How a resource-based policy names the caller. `direct` grants to the user or session
 * itself; `role` names the role ARN (still limited by the role's permissions boundary);
 * `account` names the caller's account, which delegates the decision to its IAM policies.
 */
export type PrincipalMatch = "none" | "direct" | "role" | "account";

const RANK: Record<PrincipalMatch, number> = { none: 0, account: 1, role: 2, direct: 3 };

function strongest(a: PrincipalMatch, b: PrincipalMatch): PrincipalMatch {
  return RANK[b] > RANK[a] ? b : a;
}

export function matchPrincipalSet(set: PrincipalSet, caller: RequestingPrincipal): PrincipalMatch {
  if (set.any) return "direct";
  let best: PrincipalMatch = "none";
  for (const value of set.aws) best = strongest(best, matchAwsPrincipal(value, caller));
  if (caller.kind === "service" && caller.service && set.service.includes(caller.service))
    best = "direct";
  if (
    caller.kind === "federated" &&
    caller.federatedProvider &&
    set.federated.includes(caller.federatedProvider)
  )
    best = "direct";
  if (caller.canonicalUser && set.canonicalUser.includes(caller.canonicalUser)) best = "direct";
  return best;
}

function matchAwsPrincipal(value: string, caller: RequestingPrincipal): PrincipalMatch {
  if (/^\d{12}$/.test(value)) return value === caller.accountId ? "account" : "none";
  if (!value.startsWith("arn:")) {
    // An IAM unique ID: AWS shows it when the named user or role was deleted and recreated.
    return caller.uniqueId !== undefined && value === caller.uniqueId
      ? caller.kind === "role"
        ? "role"
        : "direct"
      : "none";
  }
  const arn = parseArn(value);
  if (arn?.resource === "root") {
    if (caller.kind === "root" && value === caller.arn) return "direct";
    return arn.accountId === caller.accountId ? "account" : "none";
  }
  if (caller.sessionArn !== undefined && value === caller.sessionArn) return "direct";
  if (caller.identityArn !== undefined && value === caller.identityArn)
    return caller.kind === "role" ? "role" : "direct";
  return "none";
}

/**
 * NotPrincipal excludes the caller only when every identity the request carries is
 * listed: the account, and the user or the role and its session (AWS documents this
 * trap for Deny with NotPrincipal).
 */
function excludedByNotPrincipal(set: PrincipalSet, caller: RequestingPrincipal): boolean {
  if (set.any) return true;
  if (caller.kind === "service")
    return caller.service !== undefined && set.service.includes(caller.service);
  if (caller.kind === "federated")
    return (
      caller.federatedProvider !== undefined && set.federated.includes(caller.federatedProvider)
    );
  if (caller.kind === "anonymous") return false;
  const listed = (value: string | undefined) => value !== undefined && set.aws.includes(value);
  const accountListed =
    caller.accountId !== undefined &&
    (listed(caller.accountId) ||
      listed(`arn:${caller.partition ?? "aws"}:iam::${caller.accountId}:root`));
  if (!accountListed) return false;
  if (caller.kind === "root") return true;
  if (caller.kind === "user") return listed(caller.identityArn);
  if (caller.kind === "role") return listed(caller.identityArn) && listed(caller.sessionArn);
  return excludedOutsider(set, caller, listed);
}

/**
 * A principal the snapshots do not hold, known by its ARN alone: an account (its root),
 * a user, or a session, whose role ARN is derived from it (the role's path is unknown,
 * so a listed role ARN of that account and name with any path counts). A role ARN stands
 * for any of its sessions, like a role of the snapshots without a session name.
 */
function excludedOutsider(
  set: PrincipalSet,
  caller: RequestingPrincipal,
  listed: (value: string | undefined) => boolean,
): boolean {
  if (caller.identityArn === undefined) return true;
  const arn = parseArn(caller.identityArn);
  if (!arn || arn.resource === "root") return true;
  if (!listed(caller.identityArn)) return false;
  if (arn.service === "iam" && arn.resource.startsWith("role/")) return false;
  if (arn.service !== "sts" || !arn.resource.startsWith("assumed-role/")) return true;
  const roleName = arn.resource.split("/")[1] ?? "";
  const rolePrefix = `arn:${arn.partition}:iam::${arn.accountId}:role/`;
  return set.aws.some(
    (value) =>
      value.startsWith(rolePrefix) &&
      value.slice(value.lastIndexOf("/") + 1) === roleName &&
      value.length > rolePrefix.length,
  );
}

/**
 * The statement applies to the caller: Principal names it, or NotPrincipal does not. AWS
 * documents that a Deny with NotPrincipal always applies to a principal that has a
 * permissions boundary, whatever NotPrincipal lists.
 */
export function matchStatementPrincipal(
  statement: Statement,
  caller: RequestingPrincipal,
): PrincipalMatch {
  if (statement.principal) return matchPrincipalSet(statement.principal, caller);
  if (!statement.notPrincipal) return "none";
  if (statement.effect === "Deny" && caller.hasBoundary) return "direct";
  return excludedByNotPrincipal(statement.notPrincipal, caller) ? "none" : "direct";
}
