import { type Issue, issueAt } from "../issues.ts";
import { parseAzureCondition } from "./azure-condition.ts";
import {
  lastSegment,
  list,
  optionalBoolean,
  optionalText,
  readBlocks,
  record,
  text,
  textList,
} from "./azure-input-fields.ts";
import {
  ALL_PRINCIPALS_ID,
  type AzureAssignment,
  type AzureDeny,
  type AzureRole,
  type AzureScopeInfo,
} from "./azure-model.ts";
import { normalizeScope, scopeKind, subscriptionOfScope } from "./azure-scope.ts";
import type { AzureSnapshot } from "./azure-snapshot.ts";
import { type AzureDirectory, assignmentType } from "./read-azure-directory.ts";

/** What reading the assignments needs of the rest of the snapshot, and what it adds to. */
export interface AssignmentContext {
  snapshot: AzureSnapshot & Record<string, unknown>;
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
  snapshot: AzureSnapshot & Record<string, unknown>,
  issues: Issue[],
): { roles: AzureRole[]; roleByGuid: Map<string, AzureRole> } {
  const roles: AzureRole[] = [];
  const roleByGuid = new Map<string, AzureRole>();
  list(snapshot.roleDefinitions, "roleDefinitions", true).forEach((entry, i) => {
    const path = `roleDefinitions[${i}]`;
    const r = record(entry, path);
    const id = text(r.id, `${path}.id`);
    const guid = text(r.name, `${path}.name`).toLowerCase();
    const roleName = text(r.roleName, `${path}.roleName`);
    const roleType = optionalText(r.roleType, `${path}.roleType`);
    const role: AzureRole = {
      index: roles.length,
      id,
      guid,
      roleName,
      custom: (roleType ?? "").toLowerCase() === "customrole",
      assignableScopes: textList(r.assignableScopes, `${path}.assignableScopes`).map(
        normalizeScope,
      ),
      blocks: readBlocks(r.permissions, `${path}.permissions`, true),
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
      return;
    }
    roles.push(role);
    roleByGuid.set(guid, role);
  });
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
  list(snapshot.roleAssignments, "roleAssignments", true).forEach((entry, i) => {
    const path = `roleAssignments[${i}]`;
    const a = record(entry, path);
    const id = text(a.id, `${path}.id`);
    const principalId = text(a.principalId, `${path}.principalId`);
    const principalType = optionalText(a.principalType, `${path}.principalType`);
    const principalName = optionalText(a.principalName, `${path}.principalName`);
    const roleDefinitionId = text(a.roleDefinitionId, `${path}.roleDefinitionId`);
    optionalText(a.roleDefinitionName, `${path}.roleDefinitionName`);
    const scope = text(a.scope, `${path}.scope`);
    const condition = optionalText(a.condition, `${path}.condition`);
    optionalText(a.conditionVersion, `${path}.conditionVersion`);
    const key = id.toLowerCase();
    if (seenAssignments.has(key)) return; // `--include-inherited` with `--all` may list one twice
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
      return;
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
      return;
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
        return;
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
      return;
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
    context.directory.add(principalId, assignmentType(principalType), principalName, path);
    if (kind === "resourceGroup" || kind === "resource" || kind === "subscription")
      if (!scopes.has(scopeKey)) scopes.set(scopeKey, { scope, kind, tags: {} });
    pending.push({
      index: pending.length,
      id,
      principal: principalId.toLowerCase(),
      role,
      scope,
      scopeKey,
      kind,
      ...(condition ? { condition } : {}),
      ...(parsed && "node" in parsed ? { conditionNode: parsed.node } : {}),
    });
  });
  return pending;
}

/** Deny assignments, flat (SDK model) or under `properties` (REST), that apply to the subscription. */
export function readDenyAssignments(context: AssignmentContext): AzureDeny[] {
  const { snapshot, subscriptionId, chain, chainGiven, issues, seenMgs } = context;
  const denies: AzureDeny[] = [];
  list(snapshot.denyAssignments, "denyAssignments", false).forEach((entry, i) => {
    const path = `denyAssignments[${i}]`;
    const d = record(entry, path);
    const id = text(d.id, `${path}.id`);
    const nested = d.properties !== undefined;
    const body = nested ? record(d.properties, `${path}.properties`) : d;
    const at = nested ? `${path}.properties` : path;
    const scope = text(body.scope, `${at}.scope`);
    const principalsOf = (value: unknown, field: string, required: boolean) =>
      list(value, field, required).map((p, j) =>
        text(record(p, `${field}[${j}]`).id, `${field}[${j}].id`).toLowerCase(),
      );
    const who = principalsOf(body.principals, `${at}.principals`, true);
    const condition = optionalText(body.condition, `${at}.condition`);
    const deny: AzureDeny = {
      index: denies.length,
      id,
      name: optionalText(body.denyAssignmentName, `${at}.denyAssignmentName`) ?? lastSegment(id),
      scope,
      scopeKey: normalizeScope(scope),
      blocks: readBlocks(body.permissions, `${at}.permissions`, true),
      ownScopeOnly: optionalBoolean(body.doNotApplyToChildScopes, `${at}.doNotApplyToChildScopes`),
      everyone: who.includes(ALL_PRINCIPALS_ID),
      principals: new Set(who),
      excluded: new Set(principalsOf(body.excludePrincipals, `${at}.excludePrincipals`, false)),
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
      return;
    }
    if (kind === "managementGroup" && chainGiven && !chain.includes(deny.scopeKey)) {
      issues.push(
        issueAt(
          `${at}.scope`,
          `management group '${scope}' is not above subscription ${subscriptionId}; the deny assignment does not apply`,
          "warning",
        ),
      );
      return;
    }
    if (kind === "managementGroup") seenMgs.add(deny.scopeKey);
    denies.push(deny);
  });
  return denies;
}
