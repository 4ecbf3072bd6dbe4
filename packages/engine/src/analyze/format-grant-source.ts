import type { GrantSource } from "./analysis-types.ts";

/** The last element of an ARN (a group's or a resource's name). */
const lastName = (arn: string) =>
  arn.slice(Math.max(arn.lastIndexOf("/"), arn.lastIndexOf(":")) + 1);

/**
 * One policy as a reviewer looks for it: `AdministratorAccess (managed, arn:…) [#0]`,
 * `inline 'x' [Sid1]`, `group-inline 'x' via group 'admins' [Sid]`, `resource policy of arn:… [Sid]`.
 */
export function formatGrantSource(source: GrantSource): string {
  const sids = source.sids && source.sids.length > 0 ? ` [${source.sids.join(", ")}]` : "";
  const via = source.group ? ` via group '${lastName(source.group)}'` : "";
  switch (source.policyType) {
    case "managed":
    case "group-managed":
      return `${source.policyName ?? lastName(source.policyArn ?? "")} (${source.policyType}, ${source.policyArn ?? "?"})${via}${sids}`;
    case "inline":
    case "group-inline":
      return `${source.policyType} '${source.policyName ?? "?"}'${via}${sids}`;
    case "resource":
      return `resource policy of ${source.policyArn ?? "?"}${sids}`;
    default:
      return `${source.policyType} ${source.policyName ?? source.policyArn ?? "?"}${sids}`;
  }
}
