import { accountOfArn } from "../arn/parse-arn.ts";
import { findResourcePolicy } from "../authorize/find-resource-policy.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessNodeAttributes, AssumeAction, EdgeGrant } from "./access-graph-types.ts";
import type { AssumeGroup } from "./assume-groups.ts";
import { type AssumeTarget, assumingPrincipal } from "./assuming-principal.ts";
import { type BuildContext, decide, forEachMember, type PrincipalSlot } from "./build-context.ts";
import { trustCandidates } from "./trust-candidates.ts";

/**
 * Adds every edge into one role: evaluates the role's trust policy for each principal it
 * could admit (`trustCandidates`), once per principal group where the trust treats the
 * group's members alike, and once per outside principal, service, provider and account.
 */
export function addRoleTrustEdges(ctx: BuildContext, role: PrincipalRecord): void {
  const { model, builder } = ctx;
  const info = findResourcePolicy(model, "sts:AssumeRole", role.arn);
  if (!info.record) return;
  const target: AssumeTarget = { arn: role.arn, info };
  const candidates = trustCandidates(model, ctx.byId, ctx.evaluator, info.record.policy);
  const roleNode = ctx.slotOf(role).node;
  // Principals decided for this role already (by name or through `*`), by node stamp.
  const stamp = ++ctx.round;
  const decided = (slot: PrincipalSlot) => ctx.stamps[slot.node] === stamp;
  const direct = (slot: PrincipalSlot, grant: EdgeGrant | undefined) => {
    ctx.stamps[slot.node] = stamp;
    if (grant) builder.edge(slot.node, roleNode, "assume", "sts:AssumeRole", grant);
  };
  // Named principals of one group that the trust names alike share one decision.
  const shared = new Map<AssumeGroup, Map<string, EdgeGrant | undefined>>();
  const trustStatements = info.record.policy.statements;
  for (const record of candidates.principals) {
    const slot = ctx.slotOf(record);
    if (decided(slot)) continue;
    const group = candidates.perPrincipal ? undefined : slot.group;
    if (!group) {
      direct(slot, decide(ctx, slot.who, target));
      continue;
    }
    let byMatch = shared.get(group);
    if (!byMatch) {
      byMatch = new Map();
      shared.set(group, byMatch);
    }
    const match = ctx.evaluator.trusts.matchKey(trustStatements, slot.who.caller);
    if (!byMatch.has(match)) byMatch.set(match, decide(ctx, slot.who, target));
    direct(slot, byMatch.get(match));
  }
  if (candidates.wildcard) {
    leaf(
      ctx,
      target,
      roleNode,
      "*",
      { kind: "anonymous", analysed: false },
      { kind: "anonymous", arn: "*" },
    );
    for (const accountId of model.accounts.keys())
      forEachMember(
        ctx,
        candidates,
        accountId,
        target,
        decided,
        direct,
        accountId !== role.accountId,
      );
  }
  for (const arn of candidates.externals) {
    const accountId = accountOfArn(arn);
    const caller: RequestingPrincipal = {
      kind: "external",
      arn,
      identityArn: arn,
      ...(accountId && { accountId, partition: role.partition }),
    };
    leaf(
      ctx,
      target,
      roleNode,
      arn,
      { kind: "external", analysed: false, ...(accountId && { accountId }) },
      caller,
    );
  }
  for (const service of candidates.services)
    leaf(
      ctx,
      target,
      roleNode,
      service,
      { kind: "service", analysed: false },
      { kind: "service", arn: service, service },
    );
  for (const provider of candidates.federated) {
    const action: AssumeAction = provider.includes(":saml-provider/")
      ? "sts:AssumeRoleWithSAML"
      : "sts:AssumeRoleWithWebIdentity";
    const caller: RequestingPrincipal = {
      kind: "federated",
      arn: `federated:${provider}`,
      federatedProvider: provider,
    };
    leaf(ctx, target, roleNode, provider, { kind: "federated", analysed: false }, caller, action);
  }
  for (const accountId of candidates.accounts) {
    const caller: RequestingPrincipal = {
      kind: "external",
      arn: `arn:${role.partition}:iam::${accountId}:root`,
      accountId,
      partition: role.partition,
    };
    const analysed = model.accounts.has(accountId);
    const accountNode = builder.node(accountId, { kind: "account", accountId, analysed });
    const who = assumingPrincipal(caller, undefined, { identityAssumed: true, anyPrincipal: true });
    const grant = decide(ctx, who, target);
    // Members can do no better than the account as a whole (`grant` is their upper bound).
    if (!grant) continue;
    const e = builder.edge(accountNode, roleNode, "account-trust", "sts:AssumeRole", grant);
    // With `*`, every principal was decided above: the account adds no one new.
    if (e < 0 || !analysed || candidates.wildcard) continue;
    const pass = (slot: PrincipalSlot, memberGrant: EdgeGrant | undefined) => {
      if (memberGrant) builder.member(e, slot.node, role.arn, memberGrant);
    };
    forEachMember(ctx, candidates, accountId, target, decided, pass, true);
  }
}

function leaf(
  ctx: BuildContext,
  target: AssumeTarget,
  roleNode: number,
  key: string,
  attributes: AccessNodeAttributes,
  caller: RequestingPrincipal,
  action: AssumeAction = "sts:AssumeRole",
): void {
  const grant = decide(
    ctx,
    assumingPrincipal(caller, undefined, { identityAssumed: true }),
    target,
    action,
  );
  if (grant) ctx.builder.edge(ctx.builder.node(key, attributes), roleNode, "assume", action, grant);
}
