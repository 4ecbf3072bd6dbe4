import { PolicyIds } from "../analyze/policy-traits.ts";
import { principalOfRecord } from "../authorize/resolve-requesting-principal.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AccessGraph, AccessGraphOptions } from "./access-graph-types.ts";
import { AssumeEvaluator } from "./assume-evaluator.ts";
import { type AccountGroups, assumeGroups } from "./assume-groups.ts";
import { assumingPrincipal } from "./assuming-principal.ts";
import { type BuildContext, type PrincipalSlot, principalAttributes } from "./build-context.ts";
import { GraphBuilder } from "./graph-builder.ts";
import { addRoleTrustEdges } from "./role-trust-edges.ts";

/**
 * Who can become whom over every account of the model (give a customer's accounts together),
 * each edge a decision of `authorize`'s rules; work follows what trust policies name.
 */
export function buildAccessGraph(
  model: AccountModel,
  options: AccessGraphOptions = {},
): AccessGraph {
  const evaluator = new AssumeEvaluator(model, options);
  const builder = new GraphBuilder();
  const slots = new Map<PrincipalRecord, PrincipalSlot>();
  const byId = new Map<string, PrincipalRecord>();
  const roles: PrincipalRecord[] = [];
  for (const account of model.accounts.values()) {
    for (const record of [...account.users, ...account.roles]) {
      // The model's principal map holds the record that won when an ARN repeats.
      if (model.principals.get(record.arn) !== record) continue;
      const node = builder.node(record.arn, principalAttributes(record));
      slots.set(record, slotFor(node, record));
      byId.set(record.id, record);
      if (record.kind === "role") roles.push(record);
    }
  }
  const groups = new Map<string, AccountGroups | undefined>();
  const ids = new PolicyIds();
  const ctx: BuildContext = {
    model,
    evaluator,
    builder,
    byId,
    groupsOf(accountId) {
      if (!groups.has(accountId)) {
        const account = model.accounts.get(accountId);
        const found = account && assumeGroups(model, ids, evaluator.facts, account);
        groups.set(accountId, found);
        for (const group of found?.all ?? [])
          for (const m of group.members) ctx.slotOf(m).group = group;
      }
      return groups.get(accountId);
    },
    slotOf(record) {
      let slot = slots.get(record);
      if (!slot) {
        // A record the model's principal map does not hold (a repeated ARN): same node.
        const node = builder.node(record.arn, principalAttributes(record));
        slot = slotFor(node, record);
        slots.set(record, slot);
      }
      if (!slot.grouped) {
        slot.grouped = true;
        if (!groups.has(record.accountId)) ctx.groupsOf(record.accountId);
      }
      return slot;
    },
    stamps: new Int32Array(slots.size),
    round: 0,
  };
  for (const role of roles) addRoleTrustEdges(ctx, role);
  builder.decisions = evaluator.decisions;
  return builder.finish(options);
}

/** Every slot is made with all its fields, so that all have one shape. */
function slotFor(node: number, record: PrincipalRecord): PrincipalSlot {
  const who = assumingPrincipal(principalOfRecord(record, undefined).caller, record);
  return { node, who, group: undefined, grouped: false };
}
