import type { AccessChange } from "./access-change.ts";
import type { ChangeCause } from "./change-cause.ts";

/**
 * Changes grouped by cause, as the console and the email digest show them: making `bob` an admin
 * is one line, "bob became an IAM admin — granted by AdministratorAccess (+212 capability
 * changes)", that unfolds to the rest. Types only from the rest of the domain: the console
 * imports this module (`@sightline/domain/change-groups`) without zod.
 */

/** One text per distinct cause (its members in a fixed order, whatever order JSON kept). */
export function changeCauseKey(cause: ChangeCause): string {
  return JSON.stringify([
    cause.kind,
    cause.principalArn ?? "",
    cause.policyArn ?? "",
    cause.resourceArn ?? "",
    cause.eventIds ?? [],
  ]);
}

/** What grouping reads of a change: an alert's, or the API's (with the analysis that found it). */
export type GroupableChange = Pick<
  AccessChange,
  "changeId" | "kind" | "principalArn" | "principalName" | "resourceArn" | "cause"
> & { executionId?: string };

export interface ChangeGroup<C extends GroupableChange> {
  /** The change that names the group: its IAM-admin change, else its first. */
  head: C;
  /** The group's changes in the order given, the head among them. */
  changes: C[];
  /** The group in one line, e.g. "bob became an IAM admin — granted by AdministratorAccess". */
  title: string;
  /** What unfolds, e.g. "+212 capability changes"; empty for a group of one. */
  more: string;
}

const lastName = (arn: string) =>
  arn.slice(Math.max(arn.lastIndexOf("/"), arn.lastIndexOf(":")) + 1) || arn;
const whoOf = (change: GroupableChange) => change.principalName || lastName(change.principalArn);
const isAccess = (change: GroupableChange) => /access-(gained|lost)$/.test(change.kind);

/** `gained`, `lost`, or `changed` when the group has both. */
function directionOf(changes: readonly GroupableChange[]): "gained" | "lost" | "changed" {
  const gained = changes.some((c) => c.kind.endsWith("-gained") || c.kind === "principal-added");
  const lost = changes.some((c) => !c.kind.endsWith("-gained") && c.kind !== "principal-added");
  return gained && lost ? "changed" : gained ? "gained" : "lost";
}

function titleOf(
  cause: ChangeCause | undefined,
  head: GroupableChange,
  changes: GroupableChange[],
) {
  const who = whoOf(head);
  const direction = directionOf(changes);
  switch (cause?.kind) {
    case "iam-admin":
      return changes.some((c) => c.kind === "iam-admin-lost")
        ? `${who} is no longer an IAM admin`
        : `${who} became an IAM admin${cause.policyArn ? ` — granted by ${lastName(cause.policyArn)}` : ""}`;
    case "policy": {
      const policy = cause.policyArn ? lastName(cause.policyArn) : "an inline policy";
      return direction === "changed"
        ? `${who}'s access changed through ${policy}`
        : `${who} ${direction} access through ${policy}`;
    }
    case "resource-policy": {
      const resource = lastName(cause.resourceArn ?? head.resourceArn);
      const what = { gained: "New access", lost: "Access lost", changed: "Access changed" };
      return `${what[direction]} through the resource policy of ${resource}`;
    }
    case "organization":
      return `An SCP or RCP of the organisation: access ${direction}`;
    default:
      return `${head.kind}: ${who}`;
  }
}

function moreOf(changes: readonly GroupableChange[], head: GroupableChange): string {
  const rest = changes.filter((c) => c !== head);
  if (rest.length === 0) return "";
  const what = rest.every(isAccess) ? "capability change" : "change";
  return `+${rest.length} ${what}${rest.length === 1 ? "" : "s"}`;
}

/**
 * The changes grouped by their analysis and cause, in the order of each group's first change; a
 * change without a cause (stored before causes were) is a group of its own.
 */
export function groupChangesByCause<C extends GroupableChange>(
  changes: readonly C[],
): ChangeGroup<C>[] {
  const groups = new Map<string, C[]>();
  for (const change of changes) {
    const cause = change.cause ? changeCauseKey(change.cause) : `change ${change.changeId}`;
    const key = `${change.executionId ?? ""}\u0000${cause}`;
    const group = groups.get(key);
    if (group) group.push(change);
    else groups.set(key, [change]);
  }
  return [...groups.values()].map((list) => {
    const head = list.find((c) => c.kind.startsWith("iam-admin-")) ?? (list[0] as C);
    return {
      head,
      changes: list,
      title: titleOf(head.cause, head, list),
      more: moreOf(list, head),
    };
  });
}
