import { type Issue, issueAt } from "../issues.ts";
import { formulaAlgebra } from "../logic/algebra.ts";
import { atom, FALSE, type Formula, listAtoms, TRUE } from "../logic/formula.ts";
import type { PolicyType } from "../policy/policy-types.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import { isAlwaysAllowedAction } from "./always-allowed.ts";
import type { AuthorizationRequest } from "./authorization-request.ts";
import type { AuthorizationResult, MatchedStatement } from "./authorization-result.ts";
import { refusedByAws } from "./aws-protected-resources.ts";
import { decideRequest } from "./evaluate-layers.ts";
import {
  type EvaluationInput,
  evaluateLevels,
  evaluatePolicies,
  unknownPolicies,
  unreadKeyPolicy,
} from "./evaluate-policies.ts";
import { describeRules, findStopper } from "./explain-decision.ts";
import { findResourcePolicy } from "./find-resource-policy.ts";
import { RESOURCE_OWNER } from "./format-authorization.ts";
import { organizationScope } from "./organization-scope.ts";
import { rcpCoversAction } from "./rcp-services.ts";
import { createKeyResolver } from "./request-context.ts";
import { resolveRequestingPrincipal } from "./resolve-requesting-principal.ts";
import { readSessionInputs } from "./session-inputs.ts";

/** The undecided condition that the caller's account owns the resource (a bucket of unknown owner). */
export function resourceOwnerAtom(callerAccount: string): Formula {
  return atom({
    policyId: "",
    policyType: "resource",
    statement: "",
    operator: RESOURCE_OWNER,
    key: "aws:ResourceAccount",
    values: [callerAccount],
  });
}

/**
 * Decides one request the way AWS documents it: explicit deny anywhere wins; RCPs and
 * SCPs must allow at every level; then identity policies, permissions boundary and the
 * resource-based policy combine by the same-account union or cross-account intersection.
 */
export function authorize(model: AccountModel, request: AuthorizationRequest): AuthorizationResult {
  const issues: Issue[] = [];
  for (const field of ["principal", "action", "resource"] as const) {
    if (typeof request[field] !== "string" || request[field] === "")
      issues.push(issueAt(field, "must be a non-empty string"));
  }
  if (issues.length > 0)
    return { decision: "implicit-deny", conditions: [], statements: [], notes: [], issues };
  const { caller, record, problem } = resolveRequestingPrincipal(
    model,
    request.principal,
    request.sessionName,
  );
  if (problem) issues.push(issueAt("principal", problem));
  const session = readSessionInputs(model, request.session, caller);
  // Ignoring a session input could only widen access: a request that gives a bad one is denied.
  if (session.errors.length > 0)
    return {
      decision: "implicit-deny",
      conditions: [],
      statements: [],
      notes: [],
      issues: [...issues, ...session.errors, ...session.warnings],
    };
  issues.push(...session.warnings);
  const resourceInfo = findResourcePolicy(model, request.action, request.resource);
  const resolve = createKeyResolver(
    model,
    request,
    caller,
    record,
    resourceInfo.accountId,
    session.inputs.tags,
  );
  const matched: MatchedStatement[] = [];
  const input: EvaluationInput = {
    action: request.action,
    resource: request.resource,
    resolve,
    caller,
    matched,
  };
  const scope = organizationScope(model, caller, record, resourceInfo.accountId);

  const noLevels = { deny: FALSE, allow: [] };
  const scp = scope.scpLevels ? evaluateLevels(scope.scpLevels, input) : noLevels;
  const rcp =
    scope.rcpLevels && rcpCoversAction(request.action)
      ? evaluateLevels(scope.rcpLevels, input)
      : noLevels;
  const ofType = { resourceBased: false };
  const identity = evaluatePolicies(record?.identityPolicies ?? [], input, ofType);
  const boundary = record?.permissionsBoundary
    ? evaluatePolicies([record.permissionsBoundary], input, ofType)
    : undefined;
  const sessionPolicies = session.inputs.policies
    ? evaluatePolicies(session.inputs.policies, input, ofType)
    : undefined;
  // A key policy that could not be read stands for itself: nothing about it is assumed.
  const resource = resourceInfo.keyPolicyUnread
    ? unreadKeyPolicy(request.resource)
    : evaluatePolicies(resourceInfo.record ? [resourceInfo.record.policy] : [], input, {
        resourceBased: true,
      });
  // Resources AWS does not let customers change: refused whatever the policies say, even to the root.
  const refused = refusedByAws(request.action, request.resource, model);
  // No permission is needed: even an explicit deny does not stop it. A principal of an
  // analysed account that the snapshot lacks does not exist, so it stays denied.
  const needsNoPermission = isAlwaysAllowedAction(request.action) && !problem;
  const { layers, byPolicies, final } = decideRequest(formulaAlgebra, {
    requester: caller,
    scope,
    scp,
    rcp,
    identity,
    ...(boundary && { boundary }),
    ...(sessionPolicies && { session: sessionPolicies }),
    resource,
    // A principal of an analysed account that the snapshot lacks does not exist: nothing allows it.
    outsideIdentityAllow:
      caller.kind === "external" && !problem ? unknownPolicies(caller.arn, request.action) : FALSE,
    mustAllow: resourceInfo.mustAllow,
    assumeDefaultKeyPolicy: resourceInfo.missingKeyPolicy,
    ...(resourceInfo.ownerUnknown &&
      caller.accountId && { ownedByRequester: resourceOwnerAtom(caller.accountId) }),
    ...(refused && { refusedByAws: TRUE }),
    ...(needsNoPermission && { alwaysAllowed: TRUE }),
  });
  const notes = describeRules(layers, scope.notes);
  if (resourceInfo.keyPolicyUnread)
    notes.push(
      "the key policy could not be read: the default key policy is not assumed; whether it allows the caller, or lets IAM policies allow, is undecided",
    );
  if (refused)
    notes.push(
      `AWS does not let customers call ${request.action} on ${refused.what}, whatever their policies allow (${refused.source})`,
    );
  for (const m of matched) {
    if (!m.invalid) continue;
    issues.push(
      issueAt(
        `${m.policyId} ${m.statement}`,
        `invalid ${m.policyType} statement kept as a Deny that may apply (${m.invalid.join("; ")})`,
        "warning",
      ),
    );
  }
  const result: AuthorizationResult = {
    decision: "allowed",
    conditions: [],
    statements: matched,
    notes,
    issues,
  };
  if (final.kind === "true") {
    if (byPolicies.final.kind === "true" && !refused) return result;
    return {
      ...result,
      notes: [
        ...notes,
        `${request.action} needs no permission: any authenticated principal may call it, whatever its policies deny`,
      ],
    };
  }
  if (final.kind === "false") {
    if (byPolicies.deny.kind === "true") {
      const denier = matched.find((m) => m.effect === "Deny" && m.match === "applies");
      return {
        ...result,
        decision: "explicit-deny",
        ...(denier && { stoppedBy: denier.policyType }),
      };
    }
    const resourceType: PolicyType = resourceInfo.record?.policy.type ?? "resource";
    return {
      ...result,
      decision: "implicit-deny",
      ...(!refused && { stoppedBy: findStopper(layers, byPolicies, resourceType) }),
    };
  }
  return {
    ...result,
    decision: "conditional",
    condition: final,
    conditions: listAtoms(final),
  };
}
