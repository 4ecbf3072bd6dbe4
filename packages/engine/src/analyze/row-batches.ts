import type { PrincipalRecord } from "../snapshot/account-model.ts";
import type { PrefixWindow } from "./action-index.ts";
import type { GrantSource, ResourceAccessSummary } from "./analysis-types.ts";
import type { CapabilityLevel } from "./capability-levels.ts";
import type { GrantNames, GroupNaming } from "./grant-names.ts";
import type { GrantList, StatementGrants } from "./grant-sources.ts";
import type { TriSet } from "./tri-set.ts";

/**
 * How `members` (represented by `rep`) name what grants each level to them through their
 * identity policies (`fromIdentity`, `rep`'s lists per level): one array per level and way
 * of naming, shared by every row of those members.
 */
export function nameGroup(
  names: GrantNames,
  rep: PrincipalRecord,
  members: readonly PrincipalRecord[],
  fromIdentity: readonly GrantList[],
): GroupNaming {
  // Members named like `rep` share its sources; the others, one array per class.
  const naming = names.nameClasses(rep, members);
  const classes = naming ? naming.members.length : 1;
  const identity = new Array<readonly GrantSource[]>(fromIdentity.length * classes);
  for (let k = 0; k < fromIdentity.length; k++) {
    const list = fromIdentity[k] as GrantList;
    identity[k * classes] = names.convert(list);
    if (!naming) continue;
    const named = names.sourcesByClass(rep, naming, list);
    for (let c = 1; c < classes; c++)
      identity[k * classes + c] = named[c] as readonly GrantSource[];
  }
  return { members, classes, classOf: naming?.classOf, identity };
}

/**
 * The sources of a batch's rows (as `GroupNaming.identity`): the resource policy's
 * statements that give each level in `set`, then the identity part. The identity part
 * itself when the resource policy gives none of the levels.
 */
export function withResourceGrants(
  names: GrantNames,
  fromResource: StatementGrants,
  set: TriSet,
  levels: readonly CapabilityLevel[],
  naming: GroupNaming,
): readonly (readonly GrantSource[])[] {
  const { classes, identity } = naming;
  let out: (readonly GrantSource[])[] | undefined;
  for (let k = 0; k < levels.length; k++) {
    const level = levels[k] as CapabilityLevel;
    const head = names.convert(fromResource.granting(level.capabilityIndex, set));
    if (head.length === 0) continue;
    out ??= identity.slice();
    for (let i = k * classes; i < (k + 1) * classes; i++)
      out[i] = names.join(head, identity[i] as readonly GrantSource[]);
  }
  return out ?? identity;
}

/** The rows of a group of members on one resource, before they are made. */
export interface RowBatch {
  row: RowBase;
  levels: readonly CapabilityLevel[];
  naming: GroupNaming;
  /** Per level and naming class (`level * classes + class`), the rows' sources. */
  sources: readonly (readonly GrantSource[])[];
}

/** The resource a row is about. */
export interface RowBase {
  resourceArn: string;
  resourceType: ResourceAccessSummary["resourceType"];
  accountId: string | undefined;
  window: PrefixWindow;
}
