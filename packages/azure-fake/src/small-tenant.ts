import type { AzureRoleDefinitionInput } from "@sightline/engine";
import type { FakeAzureModel } from "./fake-model.ts";

/**
 * A small tenant and subscription for tests and the demo: built-in roles with Microsoft's IDs
 * and permissions, a custom role of a management group, assignments at the root group, a
 * management group, the subscription, a resource group and a resource (one with an ABAC
 * condition), one inherited through nested groups, one at a management group outside the
 * subscription's chain (never listed), and a deny assignment with an excluded principal.
 */
export const TENANT_ID = "72f988bf-86f1-41af-91ab-2d7cd011db47";
export const SUBSCRIPTION_ID = "0b1f6471-1bf0-4dda-aec3-111122223333";
/** Sightline's application, consented in the tenant. */
export const CLIENT_ID = "5a9c1b2e-0d7f-4c3b-9e21-8f6a4d3c2b10";
export const CLIENT_SECRET = "fake-client-secret-value-0123456789";

export const MANAGEMENT_GROUP = "contoso-platform";
export const OTHER_MANAGEMENT_GROUP = "contoso-sandbox";

export const ALICE = "11111111-1111-4111-8111-111111111111";
export const BOB = "22222222-2222-4222-8222-222222222222";
export const CAROL = "33333333-3333-4333-8333-333333333333";
export const DAVE = "44444444-4444-4444-8444-444444444444";
export const PLATFORM_OPS = "55555555-5555-4555-8555-555555555555";
export const OPS_NESTED = "66666666-6666-4666-8666-666666666666";
export const AUDITORS = "77777777-7777-4777-8777-777777777777";
export const DEPLOYER = "88888888-8888-4888-8888-888888888888";
export const BLOB_READER_MI = "99999999-9999-4999-8999-999999999999";

const SUB = `/subscriptions/${SUBSCRIPTION_ID}`;
const RG_APP = `${SUB}/resourceGroups/rg-app`;
const RG_DATA = `${SUB}/resourceGroups/rg-data`;
export const STORAGE_ACCOUNT = `${RG_DATA}/providers/Microsoft.Storage/storageAccounts/stdata01`;
export const KEY_VAULT = `${RG_APP}/providers/Microsoft.KeyVault/vaults/kv-app01`;
const MG = (name: string) => `/providers/Microsoft.Management/managementGroups/${name}`;

const builtIn = (
  name: string,
  roleName: string,
  permissions: AzureRoleDefinitionInput["permissions"],
): AzureRoleDefinitionInput => ({
  id: `/providers/Microsoft.Authorization/roleDefinitions/${name}`,
  name,
  roleName,
  roleType: "BuiltInRole",
  description: roleName,
  assignableScopes: ["/"],
  permissions,
});

/** Microsoft's built-in roles (IDs and permissions from the built-in roles reference). */
export const ROLES = {
  owner: builtIn("8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "Owner", [
    { actions: ["*"], notActions: [], dataActions: [], notDataActions: [] },
  ]),
  contributor: builtIn("b24988ac-6180-42a0-ab88-20f7382dd24c", "Contributor", [
    {
      actions: ["*"],
      notActions: [
        "Microsoft.Authorization/*/Delete",
        "Microsoft.Authorization/*/Write",
        "Microsoft.Authorization/elevateAccess/Action",
        "Microsoft.Blueprint/blueprintAssignments/write",
        "Microsoft.Blueprint/blueprintAssignments/delete",
        "Microsoft.Compute/galleries/share/action",
        "Microsoft.Purview/consents/write",
        "Microsoft.Purview/consents/delete",
        "Microsoft.Resources/deploymentStacks/manageDenySetting/action",
        "Microsoft.Subscription/cancel/action",
        "Microsoft.Subscription/enable/action",
      ],
      dataActions: [],
      notDataActions: [],
    },
  ]),
  reader: builtIn("acdd72a7-3385-48ef-bd42-f606fba81ae7", "Reader", [
    { actions: ["*/read"], notActions: [], dataActions: [], notDataActions: [] },
  ]),
  userAccessAdministrator: builtIn(
    "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9",
    "User Access Administrator",
    [
      {
        actions: ["*/read", "Microsoft.Authorization/*", "Microsoft.Support/*"],
        notActions: [],
        dataActions: [],
        notDataActions: [],
      },
    ],
  ),
  storageBlobDataReader: builtIn(
    "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1",
    "Storage Blob Data Reader",
    [
      {
        actions: [
          "Microsoft.Storage/storageAccounts/blobServices/containers/read",
          "Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action",
        ],
        notActions: [],
        dataActions: ["Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read"],
        notDataActions: [],
      },
    ],
  ),
  /** A custom role of the management group: the subscription's list does not show it. */
  platformKeyReader: {
    id: `${MG(MANAGEMENT_GROUP)}/providers/Microsoft.Authorization/roleDefinitions/0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6`,
    name: "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6",
    roleName: "Platform Key Reader",
    roleType: "CustomRole",
    description: "Reads key vault secrets of the platform",
    assignableScopes: [MG(MANAGEMENT_GROUP)],
    permissions: [
      {
        actions: ["Microsoft.KeyVault/vaults/read"],
        notActions: [],
        dataActions: ["Microsoft.KeyVault/vaults/secrets/getSecret/action"],
        notDataActions: [],
      },
    ],
  } satisfies AzureRoleDefinitionInput,
};

const assignment = (
  guid: string,
  scope: string,
  principalId: string,
  principalType: string,
  role: AzureRoleDefinitionInput,
  condition?: string,
) => ({
  id: `${scope === "/" ? "" : scope}/providers/Microsoft.Authorization/roleAssignments/${guid}`,
  name: guid,
  principalId,
  principalType,
  // ARM names a built-in role under the subscription for assignments there and below.
  roleDefinitionId: role.id.startsWith("/providers/Microsoft.Authorization")
    ? scope.startsWith(SUB)
      ? `${SUB}${role.id}`
      : role.id
    : role.id,
  scope,
  ...(condition ? { condition, conditionVersion: "2.0" } : {}),
});

/** The ABAC condition: blobs of the `reports` container only. */
export const BLOB_CONDITION =
  "((!(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'})) OR (@Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name] StringEquals 'reports'))";

/** Principals of assignments that apply to the subscription. */
export const ASSIGNED_PRINCIPAL_IDS = [
  ALICE,
  PLATFORM_OPS,
  AUDITORS,
  DEPLOYER,
  BLOB_READER_MI,
] as const;

/** A fresh copy of the model (tests may change it). */
export function smallTenantModel(): FakeAzureModel {
  const model: FakeAzureModel = {
    tenantId: TENANT_ID,
    apps: [
      {
        clientId: CLIENT_ID,
        secret: CLIENT_SECRET,
        graphPermissions: ["GroupMember.Read.All", "User.Read.All", "Application.Read.All"],
      },
    ],
    subscriptionId: SUBSCRIPTION_ID,
    subscriptionName: "contoso-prod",
    managementGroupChain: [TENANT_ID, MANAGEMENT_GROUP],
    roleDefinitions: Object.values(ROLES),
    roleAssignments: [
      assignment("a0000001-0000-4000-8000-000000000001", SUB, ALICE, "User", ROLES.owner),
      assignment(
        "a0000002-0000-4000-8000-000000000002",
        RG_APP,
        PLATFORM_OPS,
        "Group",
        ROLES.contributor,
      ),
      assignment("a0000003-0000-4000-8000-000000000003", "/", AUDITORS, "Group", ROLES.reader),
      assignment(
        "a0000004-0000-4000-8000-000000000004",
        MG(MANAGEMENT_GROUP),
        AUDITORS,
        "Group",
        ROLES.platformKeyReader,
      ),
      assignment(
        "a0000005-0000-4000-8000-000000000005",
        SUB,
        DEPLOYER,
        "ServicePrincipal",
        ROLES.userAccessAdministrator,
      ),
      assignment(
        "a0000006-0000-4000-8000-000000000006",
        STORAGE_ACCOUNT,
        BLOB_READER_MI,
        "ServicePrincipal",
        ROLES.storageBlobDataReader,
        BLOB_CONDITION,
      ),
      // Outside the subscription's chain: ARM does not list it for this subscription.
      assignment(
        "a0000007-0000-4000-8000-000000000007",
        MG(OTHER_MANAGEMENT_GROUP),
        DAVE,
        "User",
        ROLES.owner,
      ),
    ],
    denyAssignments: [
      {
        id: `${SUB}/providers/Microsoft.Authorization/denyAssignments/d0000001-0000-4000-8000-000000000001`,
        name: "d0000001-0000-4000-8000-000000000001",
        properties: {
          denyAssignmentName: "Protect storage from deletion",
          description: "Nobody but the owner deletes storage",
          permissions: [
            {
              actions: ["Microsoft.Storage/storageAccounts/delete"],
              notActions: [],
              dataActions: [],
              notDataActions: [],
            },
          ],
          scope: SUB,
          doNotApplyToChildScopes: false,
          principals: [{ id: "00000000-0000-0000-0000-000000000000", type: "SystemDefined" }],
          excludePrincipals: [{ id: ALICE, type: "User" }],
          isSystemProtected: true,
        },
      },
    ],
    resourceGroups: [
      {
        id: RG_APP,
        name: "rg-app",
        type: "Microsoft.Resources/resourceGroups",
        location: "westeurope",
        tags: { environment: "prod" },
      },
      {
        id: RG_DATA,
        name: "rg-data",
        type: "Microsoft.Resources/resourceGroups",
        location: "westeurope",
        tags: {},
      },
    ],
    resources: [
      {
        id: STORAGE_ACCOUNT,
        name: "stdata01",
        type: "Microsoft.Storage/storageAccounts",
        location: "westeurope",
        tags: { business_unit: "finance" },
      },
      {
        id: KEY_VAULT,
        name: "kv-app01",
        type: "Microsoft.KeyVault/vaults",
        location: "westeurope",
        tags: {},
      },
    ],
    users: [
      { id: ALICE, displayName: "Alice Admin", userPrincipalName: "alice@contoso.example" },
      { id: BOB, displayName: "Bob Builder", userPrincipalName: "bob@contoso.example" },
      { id: CAROL, displayName: "Carol Auditor", userPrincipalName: "carol@contoso.example" },
      { id: DAVE, displayName: "Dave Sandbox", userPrincipalName: "dave@contoso.example" },
    ],
    servicePrincipals: [
      {
        id: DEPLOYER,
        displayName: "deployer",
        appId: "0a0a0a0a-0000-4000-8000-0000000000aa",
        servicePrincipalType: "Application",
      },
      {
        id: BLOB_READER_MI,
        displayName: "mi-blob-reader",
        appId: "0b0b0b0b-0000-4000-8000-0000000000bb",
        servicePrincipalType: "ManagedIdentity",
      },
    ],
    groups: [
      { id: PLATFORM_OPS, displayName: "platform-ops", memberIds: [OPS_NESTED] },
      { id: OPS_NESTED, displayName: "ops-nested", memberIds: [BOB] },
      { id: AUDITORS, displayName: "auditors", memberIds: [CAROL, DEPLOYER] },
    ],
  };
  return structuredClone(model);
}
