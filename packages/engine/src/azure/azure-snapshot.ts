/**
 * The inputs of one Azure subscription's analysis, in Azure's own export formats, so that a
 * user can hand `sightline analyze` the files `az` writes and the collector writes the same.
 *
 * Every list is what Azure returns: unknown extra fields are allowed and ignored; `null` is
 * accepted wherever Azure writes it for "none".
 */

/** One `permissions` entry of a role definition (`az role definition list`). */
export interface AzurePermissionInput {
  actions?: readonly string[] | null;
  notActions?: readonly string[] | null;
  dataActions?: readonly string[] | null;
  notDataActions?: readonly string[] | null;
  condition?: string | null;
  conditionVersion?: string | null;
}

/** An element of `az role definition list` (built-in and custom roles). */
export interface AzureRoleDefinitionInput {
  /** `/subscriptions/<sub>/providers/Microsoft.Authorization/roleDefinitions/<guid>` or `/providers/…`. */
  id: string;
  /** The definition's GUID. */
  name: string;
  roleName: string;
  /** `BuiltInRole` or `CustomRole`. */
  roleType?: string;
  description?: string | null;
  assignableScopes?: readonly string[] | null;
  permissions: readonly AzurePermissionInput[];
}

/** `User`, `Group`, `ServicePrincipal`, `ForeignGroup`, `Device`, … as `az` writes them. */
export type AzurePrincipalTypeInput = string;

/** An element of `az role assignment list --all --include-inherited`. */
export interface AzureRoleAssignmentInput {
  /** `<scope>/providers/Microsoft.Authorization/roleAssignments/<guid>`. */
  id: string;
  name?: string;
  principalId: string;
  principalType?: AzurePrincipalTypeInput | null;
  /** `az` fills it with the UPN or display name; may be absent. */
  principalName?: string | null;
  roleDefinitionId: string;
  roleDefinitionName?: string | null;
  /** `/`, `/providers/Microsoft.Management/managementGroups/<id>`, `/subscriptions/<id>`, `…/resourceGroups/<rg>`, or a resource ID. */
  scope: string;
  /** ABAC condition on data actions (conditionVersion `2.0`). */
  condition?: string | null;
  conditionVersion?: string | null;
}

/** A principal of a deny assignment: the all-principals entry has ID `00000000-0000-0000-0000-000000000000` and type `SystemDefined`. */
export interface AzureDenyPrincipalInput {
  id: string;
  type?: string | null;
}

/**
 * A deny assignment as ARM returns it (`GET …/providers/Microsoft.Authorization/denyAssignments`):
 * fields either flat or under `properties`, as the REST API and `az rest` write them.
 */
export interface AzureDenyAssignmentInput {
  id: string;
  name?: string;
  properties?: AzureDenyAssignmentProperties;
  /** Flat form, as the SDK's model gives it. */
  denyAssignmentName?: string;
  permissions?: readonly AzurePermissionInput[];
  scope?: string;
  doNotApplyToChildScopes?: boolean | null;
  principals?: readonly AzureDenyPrincipalInput[];
  excludePrincipals?: readonly AzureDenyPrincipalInput[] | null;
  isSystemProtected?: boolean | null;
}

export interface AzureDenyAssignmentProperties {
  denyAssignmentName?: string;
  description?: string | null;
  permissions: readonly AzurePermissionInput[];
  scope: string;
  doNotApplyToChildScopes?: boolean | null;
  principals: readonly AzureDenyPrincipalInput[];
  excludePrincipals?: readonly AzureDenyPrincipalInput[] | null;
  isSystemProtected?: boolean | null;
}

/**
 * A Microsoft Graph directory object (user, group, service principal), as `GET /users`,
 * `/groups`, `/servicePrincipals` or `…/transitiveMembers` return it.
 * `servicePrincipalType` `ManagedIdentity` marks a managed identity.
 */
export interface AzureDirectoryObjectInput {
  id: string;
  "@odata.type"?: string;
  displayName?: string | null;
  userPrincipalName?: string | null;
  appId?: string | null;
  servicePrincipalType?: string | null;
}

/** A group with its members (Graph `GET /groups/{id}/transitiveMembers`; direct members are closed transitively). */
export interface AzureGroupInput extends AzureDirectoryObjectInput {
  members: readonly AzureDirectoryObjectInput[];
}

/** An element of `az resource list` (ARM `GET /subscriptions/<id>/resources`). */
export interface AzureResourceInput {
  id: string;
  name?: string;
  type: string;
  location?: string | null;
  resourceGroup?: string | null;
  tags?: Readonly<Record<string, string>> | null;
}

/** Raw inputs for one Azure subscription. */
export interface AzureSnapshot {
  /** The subscription's GUID. */
  subscriptionId: string;
  tenantId?: string;
  /** `azure` (public cloud) or `azure-government`. Default `azure`. */
  cloud?: "azure" | "azure-government";
  /**
   * The management groups above the subscription, root first (their IDs, not display names).
   * An assignment at a management group not in this chain does not apply to the subscription.
   * When absent, every management-group assignment given applies (as `--include-inherited`
   * lists only those that do).
   */
  managementGroupAncestors?: readonly string[];
  roleDefinitions: readonly AzureRoleDefinitionInput[];
  roleAssignments: readonly AzureRoleAssignmentInput[];
  denyAssignments?: readonly AzureDenyAssignmentInput[];
  /** Users, service principals (managed identities included) and groups that hold or may hold assignments. */
  principals?: readonly AzureDirectoryObjectInput[];
  groups?: readonly AzureGroupInput[];
  /** The subscription's resource groups (`az group list`): IDs and tags. */
  resourceGroups?: readonly AzureResourceInput[];
  resources?: readonly AzureResourceInput[];
}
