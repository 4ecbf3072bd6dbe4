import { type Issue, issueAt } from "../issues.ts";
import { present, readEntries, readFrame } from "./azure-input-fields.ts";
import { type AzureModel, type AzureScopeInfo, AzureSnapshotError } from "./azure-model.ts";
import {
  ancestorsOrSelf,
  managementGroupScope,
  normalizeScope,
  type ScopeTree,
  scopeKind,
} from "./azure-scope.ts";
import { azureResourceSchema, azureSnapshotFrameSchema } from "./azure-snapshot.ts";
import { readDenyAssignments, readRoleAssignments, readRoles } from "./read-azure-assignments.ts";
import { AzureDirectory } from "./read-azure-directory.ts";

/**
 * Reads a snapshot through its schema (azure-snapshot.ts) and builds the model the analysis
 * evaluates. A snapshot that cannot be analysed (not an object, no subscription GUID, a
 * top-level field of the wrong shape) throws `AzureSnapshotError` naming the field; a malformed
 * entry of a list (a role assignment, a principal, a group member, …) is left out with an
 * issue per fault naming its path (`roleAssignments[3].scope`), and the rest is analysed.
 * Problems Azure itself could hold (an assignment of an unknown role, at another
 * subscription's scope, outside its role's assignable scopes) are issues too.
 */
export function readAzureSnapshot(input: unknown): AzureModel {
  const snapshot = readFrame(azureSnapshotFrameSchema, input);
  const issues: Issue[] = [];
  const { subscriptionId } = snapshot;
  const subscriptionScope = `/subscriptions/${subscriptionId.toLowerCase()}`;

  const chainGiven = snapshot.managementGroupAncestors !== undefined;
  const chain = (snapshot.managementGroupAncestors ?? []).map((id, i) => {
    const scope = id.startsWith("/") ? normalizeScope(id) : managementGroupScope(id);
    if (scopeKind(scope) !== "managementGroup")
      throw new AzureSnapshotError(
        `managementGroupAncestors[${i}]`,
        "must be a management group ID or /providers/Microsoft.Management/managementGroups/<id>",
      );
    return scope;
  });

  const { roles, roleByGuid } = readRoles(snapshot, issues);
  const directory = new AzureDirectory(issues);
  directory.read(snapshot);
  const tree: ScopeTree = {
    subscription: subscriptionScope,
    managementGroups: chain,
    chainKnown: chainGiven,
  };
  const context = {
    snapshot,
    subscriptionId,
    chain,
    chainGiven,
    issues,
    seenMgs: new Set<string>(),
    scopes: new Map<string, AzureScopeInfo>(),
    directory,
  };
  const { seenMgs, scopes } = context;
  const assignments = readRoleAssignments(context, roleByGuid);
  const denies = readDenyAssignments(context);

  if (!chainGiven) tree.managementGroups = [...seenMgs].sort();
  // Custom roles: an assignment outside the role's assignable scopes (Azure refuses to create
  // one; it can remain after the role's scopes change) is reported and still counted.
  for (const a of assignments) {
    if (a.role.assignableScopes.length === 0) continue;
    const above = ancestorsOrSelf(a.scopeKey, tree);
    if (!a.role.assignableScopes.some((s) => above.includes(s)))
      issues.push(
        issueAt(
          `${a.path}.scope`,
          `'${a.scope}' is outside the assignable scopes of role '${a.role.roleName}'; counted as Azure still lists it`,
          "warning",
        ),
      );
  }

  // Resource groups and resources: names, types and tags for the rows.
  const readResources = (entries: readonly unknown[] | null | undefined, field: string) => {
    const what = field === "resources" ? "resource" : "resource group";
    for (const { entry: r, path } of readEntries(
      entries,
      azureResourceSchema,
      field,
      what,
      issues,
    )) {
      const { id } = r;
      const type = present(r.type);
      const name = present(r.name);
      const key = normalizeScope(id);
      const kind = scopeKind(key);
      if (!kind || kind === "root" || kind === "managementGroup") {
        issues.push(
          issueAt(
            `${path}.id`,
            `'${id}' is not a resource group or resource ID; ignored`,
            "warning",
          ),
        );
        continue;
      }
      const known = scopes.get(key);
      scopes.set(key, {
        scope: known?.scope ?? id,
        kind,
        tags: r.tags ?? {},
        ...(name ? { name } : {}),
        ...(type ? { type } : {}),
      });
    }
  };
  readResources(snapshot.resourceGroups, "resourceGroups");
  readResources(snapshot.resources, "resources");

  directory.close();
  return {
    subscriptionId,
    subscriptionScope,
    tree,
    roles,
    assignments,
    denies,
    principals: directory.principals,
    scopes,
    issues,
  };
}
