import type { PrincipalRow } from "../analyze/analysis-types.ts";
import type { AccessGraph } from "../graph/access-graph-types.ts";
import { adjacencyOf } from "../graph/adjacency.ts";
import type { AccountModel } from "../snapshot/account-model.ts";
import { streamResourceAccessPaths } from "./find-resource-access-paths.ts";
import type { AccessPath } from "./path-query.ts";
import { shortestPathsTo } from "./shortest-paths.ts";

/** One entry of the report of access paths an analysis delivers. */
export interface ReportedAccessPath {
  roleArn: string;
  /** Why the role is reported. */
  reason: "iam-admin" | "trusted-by-other-accounts";
  path: AccessPath;
  /** False on the role's last entry when its ceiling of entries cut the list. */
  complete: boolean;
}

const isAdmin = (row: PrincipalRow) => row.iamAdmin !== "no";

/** Roles of `principals` that a principal outside their account (or anyone) may assume. */
function rolesTrustedByOtherAccounts(graph: AccessGraph, principals: readonly PrincipalRow[]) {
  const adj = adjacencyOf(graph);
  const trusted = new Set<string>();
  for (const row of principals) {
    const v = adj.index.get(row.principalArn);
    if (row.principalType !== "IAMRole" || v === undefined) continue;
    for (let i = adj.inStart[v] as number; i < (adj.inStart[v + 1] as number); i++) {
      const from = adj.attributes[adj.inFrom[i] as number];
      if (from?.kind === "anonymous" || (from?.accountId && from.accountId !== row.accountId)) {
        trusted.add(row.principalArn);
        break;
      }
    }
  }
  return trusted;
}

/**
 * The access paths each analysis reports: to the account's IAM-admin roles (who can become an
 * admin) and to its roles that other accounts can assume (who outside can come in), at the
 * contract's default limit of 10 nodes.
 */
export function* reportedAccessPaths(
  graph: AccessGraph,
  model: AccountModel,
  principals: readonly PrincipalRow[],
  options: { maxAccessPathNodes?: number; maxEntries?: number } = {},
): Generator<ReportedAccessPath> {
  const admins = new Set(
    principals
      .filter((p) => p.principalType === "IAMRole" && isAdmin(p))
      .map((p) => p.principalArn),
  );
  const trusted = rolesTrustedByOtherAccounts(graph, principals);
  for (const roleArn of new Set([...admins, ...trusted])) {
    const reason = admins.has(roleArn) ? "iam-admin" : "trusted-by-other-accounts";
    const { paths } = streamResourceAccessPaths(graph, model, roleArn, {
      service: "STS",
      capabilities: ["use-resource"],
      ...options,
    });
    let previous: AccessPath | undefined;
    for (;;) {
      const next = paths.next();
      if (next.done) {
        if (previous) yield { roleArn, reason, path: previous, complete: next.value.complete };
        break;
      }
      if (previous) yield { roleArn, reason, path: previous, complete: true };
      previous = next.value;
    }
  }
}

/**
 * For each principal that is not an IAM admin itself but can become one by assuming roles,
 * its shortest chain `[principal, …, admin]`: the principals report shows indirect admins.
 */
export function iamAdminPaths(
  graph: AccessGraph,
  principals: readonly PrincipalRow[],
): Map<string, string[]> {
  const admins = new Set(principals.filter(isAdmin).map((p) => p.principalArn));
  return shortestPathsTo(graph, admins);
}
