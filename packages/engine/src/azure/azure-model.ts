import type { PrincipalType } from "../analyze/analysis-types.ts";
import type { Issue } from "../issues.ts";
import type { AzureConditionNode } from "./azure-condition.ts";
import type { ScopeKind, ScopeTree } from "./azure-scope.ts";

/** What `readAzureSnapshot` builds from a snapshot: the model the analysis evaluates. */

/**
 * A snapshot that cannot be analysed at all (not an object, no subscription GUID, a top-level
 * field of the wrong shape): the field at fault and the rule it breaks, for a 400 answer.
 * A malformed entry of a list is not thrown: it is left out with an issue.
 */
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
  /** `roleAssignments[i]`, its place in the snapshot, for issues. */
  path: string;
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
