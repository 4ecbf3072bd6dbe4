import { AppError } from "@sightline/domain";
import type {
  AzureDenyAssignmentInput,
  AzureResourceInput,
  AzureRoleAssignmentInput,
  AzureRoleDefinitionInput,
} from "@sightline/engine";
import type { ReadPurpose } from "../azure-error.ts";
import type { AzureRestClient } from "../rest/azure-rest-client.ts";
import type { AzureCollectionWarning } from "./collection-types.ts";

/** The ARM API versions Sightline reads (all generally available). */
export const ARM_API_VERSIONS = {
  subscriptions: "2022-12-01",
  authorization: "2022-04-01",
  resources: "2021-04-01",
  managementGroups: "2020-05-01",
} as const;

const READER = "the Reader role on the subscription";
const q = (version: string) => `api-version=${version}`;

interface ArmItem<P> {
  id: string;
  name?: string;
  type?: string;
  properties?: P;
}

interface RoleDefinitionProperties {
  roleName?: string;
  type?: string;
  description?: string | null;
  assignableScopes?: string[] | null;
  permissions?: AzureRoleDefinitionInput["permissions"];
}

interface RoleAssignmentProperties {
  roleDefinitionId?: string;
  principalId?: string;
  principalType?: string | null;
  scope?: string;
  condition?: string | null;
  conditionVersion?: string | null;
}

/** `az role definition list`'s shape: ARM's `properties` lifted to the top, as `az` does. */
export function toRoleDefinition(
  item: ArmItem<RoleDefinitionProperties>,
): AzureRoleDefinitionInput {
  const p = item.properties ?? {};
  return {
    id: item.id,
    name: item.name ?? item.id.slice(item.id.lastIndexOf("/") + 1),
    roleName: p.roleName ?? item.name ?? "",
    ...(p.type ? { roleType: p.type } : {}),
    description: p.description ?? null,
    assignableScopes: p.assignableScopes ?? [],
    permissions: p.permissions ?? [],
  };
}

/** `az role assignment list`'s shape. */
export function toRoleAssignment(
  item: ArmItem<RoleAssignmentProperties>,
): AzureRoleAssignmentInput | undefined {
  const p = item.properties ?? {};
  if (!p.principalId || !p.roleDefinitionId || !p.scope) return undefined;
  return {
    id: item.id,
    ...(item.name ? { name: item.name } : {}),
    principalId: p.principalId,
    principalType: p.principalType ?? null,
    roleDefinitionId: p.roleDefinitionId,
    scope: p.scope,
    condition: p.condition ?? null,
    conditionVersion: p.conditionVersion ?? null,
  };
}

/** `az resource list`'s shape: the resource group comes from the ID, as `az` adds it. */
export function toResource(item: {
  id: string;
  name?: string;
  type: string;
  location?: string | null;
  tags?: Record<string, string> | null;
}): AzureResourceInput {
  const group = /\/resourceGroups\/([^/]+)/i.exec(item.id)?.[1];
  return {
    id: item.id,
    ...(item.name ? { name: item.name } : {}),
    type: item.type,
    location: item.location ?? null,
    ...(group ? { resourceGroup: group } : {}),
    tags: item.tags ?? {},
  };
}

export interface ArmReader {
  subscription(): Promise<{ tenantId?: string; displayName?: string }>;
  roleDefinitions(): Promise<AzureRoleDefinitionInput[]>;
  roleDefinition(id: string): Promise<AzureRoleDefinitionInput>;
  roleAssignments(): Promise<AzureRoleAssignmentInput[]>;
  denyAssignments(): Promise<AzureDenyAssignmentInput[]>;
  resourceGroups(): Promise<AzureResourceInput[]>;
  resources(): Promise<AzureResourceInput[]>;
  /** Root first, or undefined (with a warning) when they cannot be read. */
  managementGroupAncestors(warnings: AzureCollectionWarning[]): Promise<string[] | undefined>;
}

export function armReader(arm: AzureRestClient, armUrl: string, subscriptionId: string): ArmReader {
  const sub = `${armUrl}/subscriptions/${subscriptionId}`;
  const auth = `${sub}/providers/Microsoft.Authorization`;
  const purpose = (what: string, permission: string): ReadPurpose => ({
    what: `${what} of subscription ${subscriptionId}`,
    permission: `${permission} (in ${READER})`,
  });
  return {
    subscription: () =>
      arm.getJson(`${sub}?${q(ARM_API_VERSIONS.subscriptions)}`, {
        what: `subscription ${subscriptionId}`,
        permission: `Microsoft.Resources/subscriptions/read (in ${READER})`,
      }),
    roleDefinitions: async () =>
      (
        await arm.listAll<ArmItem<RoleDefinitionProperties>>(
          `${auth}/roleDefinitions?${q(ARM_API_VERSIONS.authorization)}`,
          purpose("the role definitions", "Microsoft.Authorization/roleDefinitions/read"),
        )
      ).map(toRoleDefinition),
    roleDefinition: async (id) =>
      toRoleDefinition(
        await arm.getJson<ArmItem<RoleDefinitionProperties>>(
          `${armUrl}${id}?${q(ARM_API_VERSIONS.authorization)}`,
          purpose(`role definition ${id}`, "Microsoft.Authorization/roleDefinitions/read"),
        ),
      ),
    // No $filter: every assignment at, above (management groups, root) and below the subscription.
    roleAssignments: async () =>
      (
        await arm.listAll<ArmItem<RoleAssignmentProperties>>(
          `${auth}/roleAssignments?${q(ARM_API_VERSIONS.authorization)}`,
          purpose("the role assignments", "Microsoft.Authorization/roleAssignments/read"),
        )
      ).flatMap((item) => toRoleAssignment(item) ?? []),
    denyAssignments: () =>
      arm.listAll<AzureDenyAssignmentInput>(
        `${auth}/denyAssignments?${q(ARM_API_VERSIONS.authorization)}`,
        purpose("the deny assignments", "Microsoft.Authorization/denyAssignments/read"),
      ),
    resourceGroups: async () =>
      (
        await arm.listAll<Parameters<typeof toResource>[0]>(
          `${sub}/resourcegroups?${q(ARM_API_VERSIONS.resources)}`,
          purpose("the resource groups", "Microsoft.Resources/subscriptions/resourceGroups/read"),
        )
      ).map(toResource),
    resources: async () =>
      (
        await arm.listAll<Parameters<typeof toResource>[0]>(
          `${sub}/resources?${q(ARM_API_VERSIONS.resources)}`,
          purpose("the resources", "Microsoft.Resources/subscriptions/resources/read"),
        )
      ).map(toResource),
    async managementGroupAncestors(warnings) {
      // The entities API lists every management group and subscription the caller may see, each
      // with the chain of its parents' names from the root group down.
      try {
        const entities = await arm.listAll<{
          name?: string;
          type?: string;
          properties?: { parentNameChain?: string[] | null };
        }>(
          `${armUrl}/providers/Microsoft.Management/getEntities?${q(ARM_API_VERSIONS.managementGroups)}&$filter=${encodeURIComponent(`name eq '${subscriptionId}'`)}`,
          {
            what: `the management groups above subscription ${subscriptionId}`,
            permission: "Microsoft.Management/managementGroups/read on the ancestors",
          },
          { method: "POST" },
        );
        const entity = entities.find(
          (e) =>
            e.name?.toLowerCase() === subscriptionId.toLowerCase() &&
            (e.type ?? "").toLowerCase().endsWith("/subscriptions"),
        );
        const chain = entity?.properties?.parentNameChain;
        if (chain && chain.length > 0) return [...chain];
        warnings.push({
          kind: "management-groups-unreadable",
          message: `The management groups above subscription ${subscriptionId} are not visible to Sightline's application: every management-group assignment listed is taken to apply`,
          resourceId: `/subscriptions/${subscriptionId}`,
        });
        return undefined;
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== "ACCESS_DENIED" && error.retryable))
          throw error;
        warnings.push({
          kind: "management-groups-unreadable",
          message: `${error.message}: every management-group assignment listed is taken to apply`,
          resourceId: `/subscriptions/${subscriptionId}`,
        });
        return undefined;
      }
    },
  };
}
