import {
  formatGrantSource,
  type GrantSource,
  type PrincipalAccessSummary,
  type PrincipalRow,
  type ResourceAccessSummary,
} from "@sightline/engine";

export { formatGrantSource };

/** `granted by: A, B`, or a note that no statement grants it (actions that need no permission). */
export function formatGrantedBy(sources: readonly GrantSource[] | undefined): string {
  if (!sources || sources.length === 0) return "granted by: no policy statement";
  return `granted by: ${sources.map(formatGrantSource).join(", ")}`;
}

/** A principal's capability, with what grants it, on one line. */
export function formatPrincipalAccess(row: PrincipalAccessSummary): string {
  const where = row.resourceArn === "" ? "service-wide" : `on ${row.resourceArn}`;
  const excepted = [
    ...row.exceptResources,
    ...(row.exceptResourcesThisScopeOnly ?? []).map((scope) => `${scope} (this scope only)`),
  ];
  const except = excepted.length > 0 ? ` except ${excepted.join(", ")}` : "";
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
