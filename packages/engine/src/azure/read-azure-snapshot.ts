import type { PrincipalType } from "../analyze/analysis-types.ts";
import { type Issue, issueAt } from "../issues.ts";
import { type AzureConditionNode, parseAzureCondition } from "./azure-condition.ts";
import {
  ancestorsOrSelf,
  managementGroupScope,
  normalizeScope,
  type ScopeKind,
  type ScopeTree,
  scopeKind,
  subscriptionOfScope,
} from "./azure-scope.ts";
import type {
  AzureDirectoryObjectInput,
  AzurePermissionInput,
  AzureResourceInput,
  AzureSnapshot,
} from "./azure-snapshot.ts";

/** Malformed input: the field at fault and the rule it breaks, for a 400 answer. */
export class AzureSnapshotError extends Error {
  override readonly name = "AzureSnapshotError";
  constructor(
    /** The field at fault, e.g. `roleAssignments[3].scope`. */
    readonly field: string,
    rule: string,
  ) {
    super(`${field} ${rule}`);
  }
}

/** The principal ID Azure uses in a deny assignment for "all principals" (type `SystemDefined`). */
export const ALL_PRINCIPALS_ID = "00000000-0000-0000-0000-000000000000";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PermissionBlock {
  actions: readonly string[];
  notActions: readonly string[];
  dataActions: readonly string[];
  notDataActions: readonly string[];
  /** A condition on the block (role definitions with conditions): its grants are conditional. */
  condition?: string;
  /** `roleDefinitions[i].permissions[j]`, for issues. */
  path: string;
}

export interface AzureRole {
  index: number;
  id: string;
  guid: string;
  roleName: string;
  custom: boolean;
  assignableScopes: readonly string[];
  blocks: readonly PermissionBlock[];
  path: string;
}

export interface AzureAssignment {
  index: number;
  id: string;
  /** Lower-cased principal object ID. */
  principal: string;
  role: AzureRole;
  scope: string;
  scopeKey: string;
  kind: ScopeKind;
  condition?: string;
  /** The condition's Boolean structure, when it reads as Azure's syntax (else every grant is conditional). */
  conditionNode?: AzureConditionNode;
}

export interface AzureDeny {
  index: number;
  id: string;
  name: string;
  scope: string;
  scopeKey: string;
  blocks: readonly PermissionBlock[];
  /** Applies at its own scope only (`doNotApplyToChildScopes`). */
  ownScopeOnly: boolean;
  everyone: boolean;
  principals: ReadonlySet<string>;
  excluded: ReadonlySet<string>;
  condition?: string;
}

export interface AzurePrincipal {
  /** The object ID as first given. */
  id: string;
  key: string;
  name: string;
  type: PrincipalType;
  /** Lower-cased object IDs of the groups it belongs to, directly or through other groups. */
  groups: readonly string[];
}

export interface AzureScopeInfo {
  /** The scope as first given (original case). */
  scope: string;
  kind: ScopeKind;
  tags: Readonly<Record<string, string>>;
  name?: string;
  type?: string;
}

export interface AzureModel {
  subscriptionId: string;
  subscriptionScope: string;
  tree: ScopeTree;
  roles: readonly AzureRole[];
  /** The assignments that apply to the subscription or below. */
  assignments: readonly AzureAssignment[];
  denies: readonly AzureDeny[];
  principals: ReadonlyMap<string, AzurePrincipal>;
  /** Known resource groups and resources, by normalized ID. */
  scopes: ReadonlyMap<string, AzureScopeInfo>;
  issues: Issue[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function record(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw new AzureSnapshotError(field, "must be an object");
  return value;
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new AzureSnapshotError(field, "must be a non-empty string");
  return value;
}

function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new AzureSnapshotError(field, "must be a string or null");
  return value === "" ? undefined : value;
}

function list(value: unknown, field: string, required: boolean): readonly unknown[] {
  if (value === undefined || value === null) {
    if (required) throw new AzureSnapshotError(field, "is required: a list");
    return [];
  }
  if (!Array.isArray(value)) throw new AzureSnapshotError(field, "must be a list");
  return value;
}

function textList(value: unknown, field: string): string[] {
  return list(value, field, false).map((v, i) => text(v, `${field}[${i}]`));
}

function optionalBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new AzureSnapshotError(field, "must be true or false");
  return value;
}

function readBlocks(value: unknown, field: string, required: boolean): PermissionBlock[] {
  return list(value, field, required).map((entry, j) => {
    const path = `${field}[${j}]`;
    const p = record(entry, path) as AzurePermissionInput & Record<string, unknown>;
    const condition = optionalText(p.condition, `${path}.condition`);
    return {
      actions: textList(p.actions, `${path}.actions`),
      notActions: textList(p.notActions, `${path}.notActions`),
      dataActions: textList(p.dataActions, `${path}.dataActions`),
      notDataActions: textList(p.notDataActions, `${path}.notDataActions`),
      ...(condition ? { condition } : {}),
      path,
    };
  });
}

/** The last segment of an ID (`…/roleDefinitions/<guid>` -> guid), lower-cased. */
const lastSegment = (id: string) => id.slice(id.lastIndexOf("/") + 1).toLowerCase();

/** Graph `@odata.type` or `az`'s `principalType` to the report's principal type. */
function directoryType(o: AzureDirectoryObjectInput): PrincipalType | undefined {
  const odata = (o["@odata.type"] ?? "").toLowerCase();
  const sp = (o.servicePrincipalType ?? "").toLowerCase();
  if (odata === "#microsoft.graph.group") return "AzureGroup";
  if (odata === "#microsoft.graph.user") return "AzureUser";
  if (odata === "#microsoft.graph.serviceprincipal" || sp !== "" || o.appId)
    return sp === "managedidentity" ? "AzureManagedIdentity" : "AzureServicePrincipal";
  if (o.userPrincipalName) return "AzureUser";
  return undefined;
}

function assignmentType(principalType: string | undefined): PrincipalType | undefined {
  switch ((principalType ?? "").toLowerCase()) {
    case "user":
      return "AzureUser";
    case "group":
    case "foreigngroup":
      return "AzureGroup";
    case "serviceprincipal":
      return "AzureServicePrincipal";
    case "managedidentity":
      return "AzureManagedIdentity";
    default:
      return undefined;
  }
}

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

  // Roles.
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

  // Principals: the directory first (its types are exact), then the assignments.
  const principals = new Map<string, AzurePrincipal & { groups: string[] }>();
  const addPrincipal = (
    id: string,
    type: PrincipalType | undefined,
    name: string | undefined,
    path: string,
  ) => {
    const key = id.toLowerCase();
    const known = principals.get(key);
    if (known) {
      if (name && known.name === known.id) known.name = name;
      return known;
    }
    if (!type)
      issues.push(
        issueAt(
          path,
          `principal ${id} has no known type; reported as AzureServicePrincipal`,
          "warning",
        ),
      );
    const p = { id, key, name: name || id, type: type ?? "AzureServicePrincipal", groups: [] };
    principals.set(key, p);
    return p;
  };
  const readDirectoryObject = (entry: unknown, path: string, type?: PrincipalType) => {
    const o = record(entry, path) as unknown as AzureDirectoryObjectInput;
    const id = text(o.id, `${path}.id`);
    const upn = optionalText(o.userPrincipalName, `${path}.userPrincipalName`);
    const display = optionalText(o.displayName, `${path}.displayName`);
    optionalText(o.servicePrincipalType, `${path}.servicePrincipalType`);
    optionalText(o["@odata.type"], `${path}.@odata.type`);
    return addPrincipal(id, type ?? directoryType(o), upn ?? display, path);
  };
  list(snapshot.principals, "principals", false).forEach((entry, i) => {
    readDirectoryObject(entry, `principals[${i}]`);
  });
  const directMembers = new Map<string, string[]>();
  list(snapshot.groups, "groups", false).forEach((entry, i) => {
    const path = `groups[${i}]`;
    const group = readDirectoryObject(entry, path, "AzureGroup");
    if (group.type !== "AzureGroup") group.type = "AzureGroup";
    const members = directMembers.get(group.key) ?? [];
    list((entry as Record<string, unknown>).members, `${path}.members`, true).forEach((m, j) => {
      const member = readDirectoryObject(m, `${path}.members[${j}]`);
      members.push(member.key);
    });
    directMembers.set(group.key, members);
  });
  // Transitive membership, upwards; a cycle (which Entra ID refuses) is reported and cut.
  const parents = new Map<string, string[]>();
  for (const [group, members] of directMembers)
    for (const m of members) {
      const list = parents.get(m) ?? [];
      if (!list.includes(group)) list.push(group);
      parents.set(m, list);
    }
  const cycles = new Set<string>();
  const closeGroups = (key: string): string[] => {
    const seen = new Set<string>();
    const queue = [...(parents.get(key) ?? [])];
    while (queue.length > 0) {
      const g = queue.shift() as string;
      if (g === key && !cycles.has(key)) {
        cycles.add(key);
        issues.push(
          issueAt(
            "groups",
            `group ${key} is a member of itself through nested groups; the cycle is cut`,
            "warning",
          ),
        );
      }
      if (seen.has(g) || g === key) continue;
      seen.add(g);
      queue.push(...(parents.get(g) ?? []));
    }
    return [...seen].sort();
  };

  // Assignments.
  const tree: ScopeTree = {
    subscription: subscriptionScope,
    managementGroups: chain,
    chainKnown: chainGiven,
  };
  const seenMgs = new Set<string>();
  const scopes = new Map<string, AzureScopeInfo>();
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
    addPrincipal(principalId, assignmentType(principalType), principalName, path);
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
  // Deny assignments: flat (SDK model) or under `properties` (REST).
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

  if (!chainGiven) tree.managementGroups = [...seenMgs].sort();
  // Custom roles: an assignment outside the role's assignable scopes (Azure refuses to create
  // one; it can remain after the role's scopes change) is reported and still counted.
  for (const a of pending) {
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

  for (const p of principals.values()) p.groups = closeGroups(p.key);
  return {
    subscriptionId,
    subscriptionScope,
    tree,
    roles,
    assignments: pending,
    denies,
    principals,
    scopes,
    issues,
  };
}
