import { type Issue, issueAt } from "../issues.ts";
import { and, FALSE, type Formula, listAtoms, not, or, TRUE } from "../logic/formula.ts";
import type { Policy, PolicyType } from "../policy/policy-types.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import type { AuthorizationRequest } from "./authorization-request.ts";
import type { AuthorizationResult, MatchedStatement } from "./authorization-result.ts";
import { decideGrant } from "./decide-grant.ts";
import {
  type EvaluationInput,
  evaluateLevels,
  evaluatePolicies,
  unknownPolicies,
} from "./evaluate-policies.ts";
import { findResourcePolicy } from "./find-resource-policy.ts";
import { createKeyResolver } from "./request-context.ts";
import { resolveCaller } from "./resolve-caller.ts";

/**
 * Decides one request the way AWS documents it: explicit deny anywhere wins; RCPs and
 * SCPs must allow at every level; then identity policies, permissions boundary and the
 * resource-based policy combine by the same-account union or cross-account intersection.
 */
export function authorize(model: AccountModel, request: AuthorizationRequest): AuthorizationResult {
  const issues: Issue[] = [];
  const notes: string[] = [];
  const { caller, record, problem } = resolveCaller(model, request.principal, request.sessionName);
  if (problem) issues.push(issueAt("principal", problem));
  const resourceInfo = findResourcePolicy(model, request.action, request.resource);
  const resourceAccount = resourceInfo.accountId ?? caller.accountId;
  if (!resourceInfo.accountId)
    notes.push("resource account not known: assumed to be the caller's account");
  const resolve = createKeyResolver(model, request, caller, record, resourceInfo.accountId);
  const matched: MatchedStatement[] = [];
  const input: EvaluationInput = {
    action: request.action,
    resource: request.resource,
    resolve,
    caller,
    matched,
  };

  const callerAccount = caller.accountId ? model.accounts.get(caller.accountId) : undefined;
  const iamCaller = caller.kind === "user" || caller.kind === "role" || caller.kind === "root";
  const scpApplies =
    iamCaller &&
    !!callerAccount &&
    !callerAccount.isManagementAccount &&
    !record?.serviceLinked &&
    callerAccount.serviceControlPolicies.length > 0;
  const resourceAccountData = resourceAccount ? model.accounts.get(resourceAccount) : undefined;
  const rcpApplies =
    !!resourceAccountData &&
    !resourceAccountData.isManagementAccount &&
    !record?.serviceLinked &&
    resourceAccountData.resourceControlPolicies.length > 0;
  if (callerAccount?.isManagementAccount)
    notes.push("SCPs do not apply: caller is in the management account");
  if (record?.serviceLinked) notes.push("SCPs and RCPs do not apply: service-linked role");

  const scp = scpApplies
    ? evaluateLevels(callerAccount.serviceControlPolicies, input, false)
    : { deny: FALSE, allow: [] };
  const rcp = rcpApplies
    ? evaluateLevels(resourceAccountData.resourceControlPolicies, input, false)
    : { deny: FALSE, allow: [] };
  const identity = evaluatePolicies(record?.identityPolicies ?? [], input, false);
  const boundaryPolicy: Policy | undefined = record?.permissionsBoundary;
  const boundary = boundaryPolicy ? evaluatePolicies([boundaryPolicy], input, false) : undefined;
  const resourcePolicies = resourceInfo.record ? [resourceInfo.record.policy] : [];
  const resource = evaluatePolicies(resourcePolicies, input, true);

  let identityAllow: Formula = identity.allow;
  if (caller.kind === "root") identityAllow = TRUE;
  else if (caller.kind === "external") identityAllow = unknownPolicies(caller.arn, request.action);
  else if (!iamCaller) identityAllow = FALSE;
  const sameAccount = caller.accountId !== undefined && caller.accountId === resourceAccount;
  const grant = decideGrant({
    identity: identityAllow,
    boundary: boundary ? boundary.allow : TRUE,
    resource,
    ...(resourceInfo.record && { resourcePolicyType: resourceInfo.record.policy.type }),
    sameAccount,
    hasResourcePolicy: resourceInfo.record !== undefined,
    mustAllow: resourceInfo.mustAllow,
    assumeDefaultKeyPolicy: resourceInfo.missingKeyPolicy,
    callerIsIam: iamCaller || caller.kind === "external",
    notes,
  });
  const deny = or(scp.deny, rcp.deny, identity.deny, boundary?.deny ?? FALSE, resource.deny);
  const final = and(not(deny), ...rcp.allow, ...scp.allow, grant.formula);

  const result: AuthorizationResult = {
    decision: "allowed",
    conditions: [],
    statements: matched,
    notes,
    issues,
  };
  if (final.kind === "true") return result;
  if (final.kind === "false") {
    if (deny.kind === "true") {
      const denier = matched.find((m) => m.effect === "Deny" && m.match === "applies");
      return {
        ...result,
        decision: "explicit-deny",
        ...(denier && { stoppedBy: denier.policyType }),
      };
    }
    const stoppedBy: PolicyType | undefined = rcp.allow.some((f) => f.kind === "false")
      ? "rcp"
      : scp.allow.some((f) => f.kind === "false")
        ? "scp"
        : grant.stoppedBy;
    return { ...result, decision: "implicit-deny", ...(stoppedBy && { stoppedBy }) };
  }
  return { ...result, decision: "conditional", condition: final, conditions: listAtoms(final) };
}
