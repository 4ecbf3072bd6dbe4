import { z } from "zod";

/**
 * The inputs of one Azure subscription's analysis, in Azure's own export formats, so that a
 * user can hand `sightline analyze` the files `az` writes and the collector writes the same.
 *
 * The schemas below are the one place that says what each field must be; the types are
 * inferred from them. Every list is what Azure returns: unknown extra fields are allowed and
 * ignored; `null` is accepted wherever Azure writes it for "none". Fields the analysis does not
 * read are typed but never refused: a value of another type is ignored.
 * `readAzureSnapshot` (read-azure-snapshot.ts) reads a snapshot through them.
 */

/** A subscription (or tenant) ID. */
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const TEXT = "must be a non-empty string";
/** A required string with something in it. */
const text = () =>
  z.string({ error: TEXT }).refine((s) => s.trim() !== "", { error: TEXT, abort: true });
/** A string, `null` or absent (`""` reads as absent). */
const optionalText = () => z.string({ error: "must be a string or null" }).nullish();
/** A field the analysis does not read: a string when given, anything else ignored. */
const unreadText = () => z.string().nullish().catch(undefined);
const optionalBoolean = () => z.boolean({ error: "must be true or false" }).nullish();
const listError = (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required: a list" : "must be a list";
/** A required list. */
const list = <T extends z.ZodType>(entry: T) => z.array(entry, { error: listError }).readonly();
/** A list, `null` or absent (none). */
const optionalList = <T extends z.ZodType>(entry: T) => list(entry).nullish();
const object = <S extends z.ZodRawShape>(shape: S) =>
  z.object(shape, { error: "must be an object" });

/** One `permissions` entry of a role definition (`az role definition list`). */
export const azurePermissionSchema = object({
  actions: optionalList(text()),
  notActions: optionalList(text()),
  dataActions: optionalList(text()),
  notDataActions: optionalList(text()),
  condition: optionalText(),
  conditionVersion: optionalText(),
});
export type AzurePermissionInput = z.infer<typeof azurePermissionSchema>;

/** An element of `az role definition list` (built-in and custom roles). */
export const azureRoleDefinitionSchema = object({
  /** `/subscriptions/<sub>/providers/Microsoft.Authorization/roleDefinitions/<guid>` or `/providers/…`. */
  id: text(),
  /** The definition's GUID. */
  name: text(),
  roleName: text(),
  /** `BuiltInRole` or `CustomRole`. */
  roleType: optionalText(),
  description: unreadText(),
  assignableScopes: optionalList(text()),
  permissions: list(azurePermissionSchema),
});
export type AzureRoleDefinitionInput = z.infer<typeof azureRoleDefinitionSchema>;

/** `User`, `Group`, `ServicePrincipal`, `ForeignGroup`, `Device`, … as `az` writes them. */
export type AzurePrincipalTypeInput = string;

/** An element of `az role assignment list --all --include-inherited`. */
export const azureRoleAssignmentSchema = object({
  /** `<scope>/providers/Microsoft.Authorization/roleAssignments/<guid>`. */
  id: text(),
  name: unreadText(),
  principalId: text(),
  /** `User`, `Group`, `ServicePrincipal`, `ForeignGroup`, `Device`, … */
  principalType: optionalText(),
  /** `az` fills it with the UPN or display name; may be absent. */
  principalName: optionalText(),
  roleDefinitionId: text(),
  roleDefinitionName: optionalText(),
  /** `/`, `/providers/Microsoft.Management/managementGroups/<id>`, `/subscriptions/<id>`, `…/resourceGroups/<rg>`, or a resource ID. */
  scope: text(),
  /** ABAC condition on data actions (conditionVersion `2.0`). */
  condition: optionalText(),
  conditionVersion: optionalText(),
});
export type AzureRoleAssignmentInput = z.infer<typeof azureRoleAssignmentSchema>;

/** A principal of a deny assignment: the all-principals entry has ID `00000000-0000-0000-0000-000000000000` and type `SystemDefined`. */
export const azureDenyPrincipalSchema = object({ id: text(), type: unreadText() });
export type AzureDenyPrincipalInput = z.infer<typeof azureDenyPrincipalSchema>;

/** A deny assignment's body: under `properties` (REST) or flat (the SDK's model). */
export const azureDenyAssignmentPropertiesSchema = object({
  denyAssignmentName: optionalText(),
  description: unreadText(),
  permissions: list(azurePermissionSchema),
  scope: text(),
  doNotApplyToChildScopes: optionalBoolean(),
  principals: list(azureDenyPrincipalSchema),
  excludePrincipals: optionalList(azureDenyPrincipalSchema),
  isSystemProtected: z.boolean().nullish().catch(undefined),
  condition: optionalText(),
});
export type AzureDenyAssignmentProperties = z.infer<typeof azureDenyAssignmentPropertiesSchema>;

/**
 * A deny assignment as ARM returns it (`GET …/providers/Microsoft.Authorization/denyAssignments`):
 * fields either flat or under `properties`, as the REST API and `az rest` write them. Without
 * `properties`, the flat fields must hold what `properties` would.
 */
export const azureDenyAssignmentSchema = azureDenyAssignmentPropertiesSchema
  .partial()
  .extend({
    id: text(),
    name: unreadText(),
    properties: azureDenyAssignmentPropertiesSchema.optional(),
  })
  .superRefine((deny, context) => {
    if (deny.properties !== undefined) return;
    const flat = azureDenyAssignmentPropertiesSchema.safeParse(deny);
    for (const issue of flat.error?.issues ?? [])
      context.addIssue({ code: "custom", message: issue.message, path: issue.path });
  });
export type AzureDenyAssignmentInput = z.infer<typeof azureDenyAssignmentSchema>;

/**
 * A Microsoft Graph directory object (user, group, service principal), as `GET /users`,
 * `/groups`, `/servicePrincipals` or `…/transitiveMembers` return it.
 * `servicePrincipalType` `ManagedIdentity` marks a managed identity.
 */
export const azureDirectoryObjectSchema = object({
  id: text(),
  "@odata.type": optionalText(),
  displayName: optionalText(),
  userPrincipalName: optionalText(),
  appId: unreadText(),
  servicePrincipalType: optionalText(),
});
export type AzureDirectoryObjectInput = z.infer<typeof azureDirectoryObjectSchema>;

/** A group with its members (Graph `GET /groups/{id}/transitiveMembers`; direct members are closed transitively). */
export const azureGroupSchema = azureDirectoryObjectSchema.extend({
  members: list(azureDirectoryObjectSchema),
});
export type AzureGroupInput = z.infer<typeof azureGroupSchema>;

/** An element of `az resource list` (ARM `GET /subscriptions/<id>/resources`) or `az group list`. */
export const azureResourceSchema = object({
  id: text(),
  name: optionalText(),
  type: optionalText(),
  location: unreadText(),
  resourceGroup: unreadText(),
  tags: z
    .record(z.string(), z.string({ error: "must be a string" }), { error: "must be an object" })
    .readonly()
    .nullish(),
});
export type AzureResourceInput = z.infer<typeof azureResourceSchema>;

/** What frames a snapshot: a value here that is wrong makes the whole snapshot unusable. */
const frame = {
  /** The subscription's GUID. */
  subscriptionId: text().refine((id) => GUID.test(id), {
    error: (issue) => `must be a subscription GUID, got '${issue.input}'`,
  }),
  tenantId: optionalText(),
  /** `azure` (public cloud) or `azure-government`. Default `azure`. */
  cloud: z
    .enum(["azure", "azure-government"], { error: "must be 'azure' or 'azure-government'" })
    .optional(),
  /**
   * The management groups above the subscription, root first (their IDs, not display names).
   * An assignment at a management group not in this chain does not apply to the subscription.
   * When absent, every management-group assignment given applies (as `--include-inherited`
   * lists only those that do).
   */
  managementGroupAncestors: optionalList(text()),
};

/** Raw inputs for one Azure subscription. */
export const azureSnapshotSchema = object({
  ...frame,
  roleDefinitions: list(azureRoleDefinitionSchema),
  roleAssignments: list(azureRoleAssignmentSchema),
  denyAssignments: optionalList(azureDenyAssignmentSchema),
  /** Users, service principals (managed identities included) and groups that hold or may hold assignments. */
  principals: optionalList(azureDirectoryObjectSchema),
  groups: optionalList(azureGroupSchema),
  /** The subscription's resource groups (`az group list`): IDs and tags. */
  resourceGroups: optionalList(azureResourceSchema),
  resources: optionalList(azureResourceSchema),
});
export type AzureSnapshot = z.infer<typeof azureSnapshotSchema>;

/**
 * The snapshot as `readAzureSnapshot` first reads it: the same schema with the frame checked
 * and the lists' entries left to be read one by one, each by its schema above (a malformed
 * entry is left out with an issue, the rest read).
 */
export const azureSnapshotFrameSchema = azureSnapshotSchema.extend({
  roleDefinitions: list(z.unknown()),
  roleAssignments: list(z.unknown()),
  denyAssignments: optionalList(z.unknown()),
  principals: optionalList(z.unknown()),
  groups: optionalList(z.unknown()),
  resourceGroups: optionalList(z.unknown()),
  resources: optionalList(z.unknown()),
});
export type AzureSnapshotFrame = z.infer<typeof azureSnapshotFrameSchema>;

/** A group as read entry by entry: its members too are read one by one. */
export const azureGroupFrameSchema = azureDirectoryObjectSchema.extend({
  members: list(z.unknown()),
});
