import type {
  GrantSource,
  PrincipalAccessSummary,
  PrincipalRow,
  ResourceAccessSummary,
} from "@sightline/engine";

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

/** `granted by: A, B`, or a note that no statement grants it (actions that need no permission). */
export function formatGrantedBy(sources: readonly GrantSource[] | undefined): string {
  if (!sources || sources.length === 0) return "granted by: no policy statement";
  return `granted by: ${sources.map(formatGrantSource).join(", ")}`;
}

/** A principal's capability, with what grants it, on one line. */
export function formatPrincipalAccess(row: PrincipalAccessSummary): string {
  const where = row.resourceArn === "" ? "service-wide" : `on ${row.resourceArn}`;
  const except = row.exceptResources.length > 0 ? ` except ${row.exceptResources.join(", ")}` : "";
  const conditional = row.conditional ? " [conditional]" : "";
  return `${row.principalArn}: ${row.service} ${row.capability} ${where}${except}${conditional}; ${formatGrantedBy(row.grantedBy)}`;
}

/** Who holds a capability on a resource, with what grants it, on one line. */
export function formatResourceAccess(row: ResourceAccessSummary): string {
  const conditional = row.conditional ? " [conditional]" : "";
  return `${row.resourceArn}: ${row.principal} (${row.principalType}) ${row.service} ${row.capability}${conditional}; ${formatGrantedBy(row.grantedBy)}`;
}

/** An IAM admin, the policies that make it one and the IAM actions they allow (the first ten). */
export function formatIamAdmin(row: PrincipalRow): string {
  const actions = row.iamAdminActions ?? [];
  const shown = actions.slice(0, 10).join(", ");
  const more = actions.length > 10 ? `, … (${actions.length} actions)` : "";
  const conditional = row.iamAdmin === "conditional" ? " [conditional]" : "";
  return `${row.principalArn}: IAM admin${conditional}; ${formatGrantedBy(row.iamAdminGrantedBy)}; actions: ${shown}${more}`;
}
