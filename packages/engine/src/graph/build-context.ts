import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessNodeAttributes, AssumeAction, EdgeGrant } from "./access-graph-types.ts";
import type { AssumeEvaluator } from "./assume-evaluator.ts";
import { type AccountGroups, type AssumeGroup, groupsThatMayAssume } from "./assume-groups.ts";
import type { AssumeTarget, AssumingPrincipal } from "./assuming-principal.ts";
import { type GraphBuilder, grantOf } from "./graph-builder.ts";
import type { TrustCandidates } from "./trust-candidates.ts";

export interface PrincipalSlot {
  node: number;
  /** The caller for every decision about this principal (it caches its organization scopes). */
  who: AssumingPrincipal;
  group?: AssumeGroup;
  /** Its account's groups have been formed (`group` is set unless it is in none). */
  grouped?: boolean;
}

/** What the per-role step needs from the build. */
export interface BuildContext {
  model: AccountModel;
  evaluator: AssumeEvaluator;
  builder: GraphBuilder;
  byId: ReadonlyMap<string, PrincipalRecord>;
  groupsOf(accountId: string): AccountGroups | undefined;
  /** Everything the build keeps per principal, found with one look-up. */
  slotOf(record: PrincipalRecord): PrincipalSlot;
  /** Per principal node, the last role round that decided it. */
  stamps: Int32Array;
  round: number;
}

/**
 * Decides each principal of an account not decided yet, once per group unless the trust
 * tells members apart. `needsIdentity`: only groups whose Allows could cover the role.
 */
export function forEachMember(
  ctx: BuildContext,
  candidates: TrustCandidates,
  accountId: string,
  target: AssumeTarget,
  decided: (slot: PrincipalSlot) => boolean,
  visit: (slot: PrincipalSlot, grant: EdgeGrant | undefined) => void,
  needsIdentity: boolean,
): void {
  const alone = (r: PrincipalRecord) => candidates.perPrincipal || candidates.names(r);
  const groups = ctx.groupsOf(accountId);
  if (!groups) return;
  for (const group of needsIdentity ? groupsThatMayAssume(groups, target.arn) : groups.all) {
    let shared: { grant: EdgeGrant | undefined } | undefined;
    for (const record of group.members) {
      const slot = ctx.slotOf(record);
      if (decided(slot)) continue;
      if (alone(record)) {
        visit(slot, decide(ctx, slot.who, target));
        continue;
      }
      shared ??= { grant: decide(ctx, slot.who, target) };
      visit(slot, shared.grant);
    }
  }
}

export function decide(
  ctx: BuildContext,
  who: AssumingPrincipal,
  target: AssumeTarget,
  action: AssumeAction = "sts:AssumeRole",
): EdgeGrant | undefined {
  return grantOf(ctx.evaluator.decide(who, target, action));
}

export function principalAttributes(record: PrincipalRecord): AccessNodeAttributes {
  return { kind: record.kind, accountId: record.accountId, analysed: true };
}
