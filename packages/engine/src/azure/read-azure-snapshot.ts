import { type Issue, issueAt } from "../issues.ts";
import { GUID, list, optionalText, record, text, textList } from "./azure-input-fields.ts";
import { type AzureModel, type AzureScopeInfo, AzureSnapshotError } from "./azure-model.ts";
import {
  ancestorsOrSelf,
  managementGroupScope,
  normalizeScope,
  type ScopeTree,
  scopeKind,
} from "./azure-scope.ts";
import type { AzureResourceInput, AzureSnapshot } from "./azure-snapshot.ts";
import { readDenyAssignments, readRoleAssignments, readRoles } from "./read-azure-assignments.ts";
import { AzureDirectory } from "./read-azure-directory.ts";

/**
 * Validates a snapshot and builds the model the analysis evaluates. Malformed input (a wrong
 * type, a missing required field) throws `AzureSnapshotError` naming the field; problems Azure
 * itself could hold (an assignment of an unknown role, at another subscription's scope, outside
 * its role's assignable scopes) are recorded as issues.
 */
export function readAzureSnapshot(input: unknown): AzureModel {
  const snapshot = record(input, "snapshot") as unknown as AzureSnapshot & Record<string, unknown>;
  const issues: Issue[] = [];
  const subscriptionId = text(snapshot.subscriptionId, "subscriptionId");
  if (!GUID.test(subscriptionId))
    throw new AzureSnapshotError(
      "subscriptionId",
      `must be a subscription GUID, got '${subscriptionId}'`,
    );
  const cloud = snapshot.cloud as unknown;
  if (cloud !== undefined && cloud !== "azure" && cloud !== "azure-government")
    throw new AzureSnapshotError("cloud", "must be 'azure' or 'azure-government'");
  optionalText(snapshot.tenantId, "tenantId");
  const subscriptionScope = `/subscriptions/${subscriptionId.toLowerCase()}`;

  const chainGiven = snapshot.managementGroupAncestors !== undefined;
  const chain = textList(snapshot.managementGroupAncestors, "managementGroupAncestors").map(
    (id, i) => {
      const scope = id.startsWith("/") ? normalizeScope(id) : managementGroupScope(id);
      if (scopeKind(scope) !== "managementGroup")
        throw new AzureSnapshotError(
          `managementGroupAncestors[${i}]`,
          "must be a management group ID or /providers/Microsoft.Management/managementGroups/<id>",
        );
      return scope;
    },
  );

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
          `roleAssignments[${a.index}].scope`,
          `'${a.scope}' is outside the assignable scopes of role '${a.role.roleName}'; counted as Azure still lists it`,
          "warning",
        ),
      );
  }

  // Resource groups and resources: names, types and tags for the rows.
  const readResources = (value: unknown, field: string) =>
    list(value, field, false).forEach((entry, i) => {
      const path = `${field}[${i}]`;
      const r = record(entry, path) as unknown as AzureResourceInput & Record<string, unknown>;
      const id = text(r.id, `${path}.id`);
      const type = optionalText(r.type, `${path}.type`);
      const name = optionalText(r.name, `${path}.name`);
      const tags: Record<string, string> = {};
      if (r.tags !== undefined && r.tags !== null) {
        const t = record(r.tags, `${path}.tags`);
        for (const [k, v] of Object.entries(t)) {
          if (typeof v !== "string")
            throw new AzureSnapshotError(`${path}.tags.${k}`, "must be a string");
          tags[k] = v;
        }
      }
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
        return;
      }
      const known = scopes.get(key);
      scopes.set(key, {
        scope: known?.scope ?? id,
        kind,
        tags,
        ...(name ? { name } : {}),
        ...(type ? { type } : {}),
      });
    });
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
