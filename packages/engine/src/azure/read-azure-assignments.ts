import { type Issue, issueAt } from "../issues.ts";
import { parseAzureCondition } from "./azure-condition.ts";
import { lastSegment, present, readBlocks, readEntries } from "./azure-input-fields.ts";
import {
  ALL_PRINCIPALS_ID,
  type AzureAssignment,
  type AzureDeny,
  type AzureRole,
  type AzureScopeInfo,
} from "./azure-model.ts";
import { normalizeScope, scopeKind, subscriptionOfScope } from "./azure-scope.ts";
import {
  type AzureDenyAssignmentProperties,
  type AzureSnapshotFrame,
  azureDenyAssignmentSchema,
  azureRoleAssignmentSchema,
  azureRoleDefinitionSchema,
} from "./azure-snapshot.ts";
import { type AzureDirectory, assignmentType } from "./read-azure-directory.ts";

/** What reading the assignments needs of the rest of the snapshot, and what it adds to. */
export interface AssignmentContext {
  snapshot: AzureSnapshotFrame;
  subscriptionId: string;
  /** The management groups above the subscription, and whether the snapshot lists them. */
  chain: readonly string[];
  chainGiven: boolean;
  issues: Issue[];
  /** The management groups that assignments or denies name (filled in). */
  seenMgs: Set<string>;
  /** The subscription, resource groups and resources that assignments name (filled in). */
  scopes: Map<string, AzureScopeInfo>;
  directory: AzureDirectory;
}

/** The role definitions, by position and by name (GUID); a name listed twice keeps the first. */
export function readRoles(
  snapshot: Pick<AzureSnapshotFrame, "roleDefinitions">,
  issues: Issue[],
): { roles: AzureRole[]; roleByGuid: Map<string, AzureRole> } {
  const roles: AzureRole[] = [];
  const roleByGuid = new Map<string, AzureRole>();
  const definitions = readEntries(
    snapshot.roleDefinitions,
    azureRoleDefinitionSchema,
    "roleDefinitions",
    "role definition",
    issues,
  );
  for (const { entry: r, path } of definitions) {
    const { id, roleName } = r;
    const guid = r.name.toLowerCase();
    const role: AzureRole = {
      index: roles.length,
      id,
      guid,
      roleName,
      custom: (r.roleType ?? "").toLowerCase() === "customrole",
      assignableScopes: (r.assignableScopes ?? []).map(normalizeScope),
      blocks: readBlocks(r.permissions, `${path}.permissions`),
      path,
    };
    if (lastSegment(id) !== guid)
      issues.push(
        issueAt(`${path}.id`, `does not end with the role's name (GUID) ${guid}`, "warning"),
      );
    if (roleByGuid.has(guid)) {
      issues.push(
        issueAt(path, `role definition ${guid} is listed twice; the first is used`, "warning"),
      );
      continue;
    }
    roles.push(role);
    roleByGuid.set(guid, role);
  }
  return { roles, roleByGuid };
}

/**
 * The role assignments that apply to the subscription or below; the others (another
 * subscription's, an unknown role's, a management group not above it) are reported.
 */
export function readRoleAssignments(
  context: AssignmentContext,
  roleByGuid: ReadonlyMap<string, AzureRole>,
): AzureAssignment[] {
  const { snapshot, subscriptionId, chain, chainGiven, issues, seenMgs, scopes } = context;
  const pending: AzureAssignment[] = [];
  const seenAssignments = new Set<string>();
  const entries = readEntries(
    snapshot.roleAssignments,
    azureRoleAssignmentSchema,
    "roleAssignments",
    "role assignment",
    issues,
  );
  for (const { entry: a, path } of entries) {
    const { id, principalId, roleDefinitionId, scope } = a;
    const condition = present(a.condition);
    const key = id.toLowerCase();
    if (seenAssignments.has(key)) continue; // `--include-inherited` with `--all` may list one twice
    seenAssignments.add(key);
    const scopeKey = normalizeScope(scope);
    const kind = scopeKind(scopeKey);
    if (!kind) {
      issues.push(
        issueAt(
          `${path}.scope`,
          `'${scope}' is not an Azure scope; the assignment is ignored`,
          "warning",
        ),
      );
      continue;
    }
    if (
      kind !== "root" &&
      kind !== "managementGroup" &&
      subscriptionOfScope(scopeKey) !== subscriptionId.toLowerCase()
    ) {
      issues.push(
        issueAt(
          `${path}.scope`,
          `'${scope}' is in another subscription; the assignment does not apply to ${subscriptionId}`,
          "warning",
        ),
      );
      continue;
    }
    if (kind === "managementGroup") {
      if (chainGiven && !chain.includes(scopeKey)) {
        issues.push(
          issueAt(
            `${path}.scope`,
            `management group '${scope}' is not above subscription ${subscriptionId} (managementGroupAncestors); the assignment does not apply`,
            "warning",
          ),
        );
        continue;
      }
      seenMgs.add(scopeKey);
    }
    const role = roleByGuid.get(lastSegment(roleDefinitionId));
    if (!role) {
      issues.push(
        issueAt(
          `${path}.roleDefinitionId`,
          `role definition '${roleDefinitionId}' is not in roleDefinitions; the assignment grants nothing here`,
        ),
      );
      continue;
    }
    const parsed = condition ? parseAzureCondition(condition) : undefined;
    if (parsed && "error" in parsed)
      issues.push(
        issueAt(
          `${path}.condition`,
          `the condition does not read as Azure's condition syntax (${parsed.error}): every operation the assignment grants is reported conditional`,
          "warning",
        ),
      );
    const type = assignmentType(present(a.principalType));
    context.directory.add(principalId, type, present(a.principalName), path);
    if (kind === "resourceGroup" || kind === "resource" || kind === "subscription")
      if (!scopes.has(scopeKey)) scopes.set(scopeKey, { scope, kind, tags: {} });
    pending.push({
      index: pending.length,
      path,
      id,
      principal: principalId.toLowerCase(),
      role,
      scope,
      scopeKey,
      kind,
      ...(condition ? { condition } : {}),
      ...(parsed && "node" in parsed ? { conditionNode: parsed.node } : {}),
    });
  }
  return pending;
}

/** Deny assignments, flat (SDK model) or under `properties` (REST), that apply to the subscription. */
export function readDenyAssignments(context: AssignmentContext): AzureDeny[] {
  const { snapshot, subscriptionId, chain, chainGiven, issues, seenMgs } = context;
  const denies: AzureDeny[] = [];
  const entries = readEntries(
    snapshot.denyAssignments,
    azureDenyAssignmentSchema,
    "denyAssignments",
    "deny assignment",
    issues,
  );
  for (const { entry: d, path } of entries) {
    const { id } = d;
    // The schema has checked the flat fields when there is no `properties`.
    const body = (d.properties ?? d) as AzureDenyAssignmentProperties;
    const at = d.properties ? `${path}.properties` : path;
    const { scope } = body;
    const principalsOf = (list: readonly { id: string }[] | null | undefined) =>
      (list ?? []).map((p) => p.id.toLowerCase());
    const who = principalsOf(body.principals);
    const condition = present(body.condition);
    const deny: AzureDeny = {
      index: denies.length,
      id,
      name: present(body.denyAssignmentName) ?? lastSegment(id),
      scope,
      scopeKey: normalizeScope(scope),
      blocks: readBlocks(body.permissions, `${at}.permissions`),
      ownScopeOnly: body.doNotApplyToChildScopes === true,
      everyone: who.includes(ALL_PRINCIPALS_ID),
      principals: new Set(who),
      excluded: new Set(principalsOf(body.excludePrincipals)),
      ...(condition ? { condition } : {}),
    };
    const kind = scopeKind(deny.scopeKey);
    if (
      !kind ||
      (kind !== "root" &&
        kind !== "managementGroup" &&
        subscriptionOfScope(deny.scopeKey) !== subscriptionId.toLowerCase())
    ) {
      issues.push(
        issueAt(
          `${at}.scope`,
          `'${scope}' is not this subscription or above it; the deny assignment does not apply`,
          "warning",
        ),
      );
      continue;
    }
    if (kind === "managementGroup" && chainGiven && !chain.includes(deny.scopeKey)) {
      issues.push(
        issueAt(
          `${at}.scope`,
          `management group '${scope}' is not above subscription ${subscriptionId}; the deny assignment does not apply`,
          "warning",
        ),
      );
      continue;
    }
    if (kind === "managementGroup") seenMgs.add(deny.scopeKey);
    denies.push(deny);
  }
  return denies;
}
