import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listAzureOperations } from "@sightline/capabilities";
import type {
  AzureDenyAssignmentInput,
  AzureDirectoryObjectInput,
  AzureGroupInput,
  AzureResourceInput,
  AzureRoleAssignmentInput,
  AzureRoleDefinitionInput,
  AzureSnapshot,
} from "../src/index.ts";
import { Random } from "./random.ts";

export interface TenantSize {
  principals: number;
  groups: number;
  assignments: number;
  customRoles: number;
  resourceGroups: number;
  resources: number;
  denyAssignments: number;
}

export const AZURE_SIZES = {
  small: {
    principals: 300,
    groups: 20,
    assignments: 120,
    customRoles: 8,
    resourceGroups: 6,
    resources: 60,
    denyAssignments: 4,
  },
  large: {
    principals: 20_000,
    groups: 500,
    assignments: 2_000,
    customRoles: 50,
    resourceGroups: 120,
    resources: 3_000,
    denyAssignments: 12,
  },
} satisfies Record<string, TenantSize>;

const SUB = "5b1c3f7e-0000-4000-8000-000000000001";
const SUB_SCOPE = `/subscriptions/${SUB}`;
const MG = (id: string) => `/providers/Microsoft.Management/managementGroups/${id}`;
const CHAIN = ["contoso-root", "platform", "landing-zones"];
const OTHER_MGS = ["sandbox", "decommissioned"];
const ALL_PRINCIPALS = "00000000-0000-0000-0000-000000000000";

const guid = (prefix: number, n: number) =>
  `${prefix.toString(16).padStart(8, "0")}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

const RESOURCE_TYPES = [
  "Microsoft.Storage/storageAccounts",
  "Microsoft.KeyVault/vaults",
  "Microsoft.Compute/virtualMachines",
  "Microsoft.Sql/servers",
  "Microsoft.Web/sites",
  "Microsoft.Network/virtualNetworks",
  "Microsoft.ContainerRegistry/registries",
  "Microsoft.DocumentDB/databaseAccounts",
  "Microsoft.EventHub/namespaces",
  "Microsoft.ServiceBus/namespaces",
];

/** Built-in roles most often assigned, by name; the rest are picked rarely. */
const POPULAR = [
  "Reader",
  "Contributor",
  "Storage Blob Data Reader",
  "Key Vault Secrets User",
  "Storage Blob Data Contributor",
  "Virtual Machine Contributor",
  "Website Contributor",
  "SQL DB Contributor",
  "AcrPull",
  "Monitoring Reader",
  "Network Contributor",
  "Key Vault Administrator",
  "User Access Administrator",
  "Owner",
];

/**
 * A synthetic tenant seen from one subscription: users, service principals and managed
 * identities in nested groups, every built-in role plus custom roles, role assignments at
 * management groups (some outside the subscription's chain), the subscription, resource groups
 * and resources (some with ABAC conditions), and deny assignments. Seeded: the same every run.
 */
export function generateAzureTenant(size: TenantSize, seed = 13): AzureSnapshot {
  const random = new Random(seed);
  const builtIns = (
    JSON.parse(
      readFileSync(
        join(import.meta.dirname, "../../capabilities/reference/azure/built-in-roles-raw.json"),
        "utf8",
      ),
    ) as Omit<AzureRoleDefinitionInput, "id">[]
  ).map((r) => ({
    ...r,
    id: `${SUB_SCOPE}/providers/Microsoft.Authorization/roleDefinitions/${r.name}`,
  }));
  const popular = POPULAR.flatMap((name) => builtIns.filter((r) => r.roleName === name));

  // Custom roles from the catalogue: provider wildcards, resource-type wildcards, literals.
  const operations = listAzureOperations();
  const providers = [...new Set(operations.map((o) => o.provider))];
  const custom: AzureRoleDefinitionInput[] = [];
  for (let i = 0; i < size.customRoles; i++) {
    const id = guid(0xc0570000, i);
    const actions: string[] = ["*/read"];
    const notActions: string[] = [];
    const dataActions: string[] = [];
    for (let k = 0; k < 1 + random.int(4); k++) {
      const op = random.pick(operations);
      const provider = random.pick(providers);
      if (op.isDataAction) dataActions.push(op.operation);
      else if (random.chance(0.3)) actions.push(`${provider}/*`);
      else if (random.chance(0.5))
        actions.push(`${op.operation.split("/").slice(0, 2).join("/")}/*`);
      else actions.push(op.operation);
    }
    if (random.chance(0.4)) notActions.push(`${random.pick(providers)}/*/delete`);
    custom.push({
      id: `${SUB_SCOPE}/providers/Microsoft.Authorization/roleDefinitions/${id}`,
      name: id,
      roleName: `custom-role-${i}`,
      roleType: "CustomRole",
      assignableScopes: [random.chance(0.8) ? SUB_SCOPE : MG(CHAIN[1] as string)],
      permissions: [{ actions, notActions, dataActions, notDataActions: [] }],
    });
  }

  // Principals: 80 % users, 12 % service principals, 8 % managed identities.
  const principals: AzureDirectoryObjectInput[] = [];
  for (let i = 0; i < size.principals; i++) {
    const id = guid(0xa0000000, i);
    const r = random.next();
    principals.push(
      r < 0.8
        ? {
            id,
            "@odata.type": "#microsoft.graph.user",
            userPrincipalName: `user${i}@contoso.example`,
            displayName: `User ${i}`,
          }
        : {
            id,
            "@odata.type": "#microsoft.graph.servicePrincipal",
            displayName: `app-${i}`,
            appId: guid(0xa1000000, i),
            servicePrincipalType: r < 0.92 ? "Application" : "ManagedIdentity",
          },
    );
  }
  // Groups: each principal in 0–2 groups, the first groups the largest (an "all engineers"
  // group has thousands of members, a team's a few dozen); a tenth of the groups nested in a
  // larger one.
  const members: AzureDirectoryObjectInput[][] = Array.from({ length: size.groups }, () => []);
  const groupIds = Array.from({ length: size.groups }, (_, g) => guid(0x90000000, g));
  for (const p of principals)
    for (let k = random.int(3); k > 0; k--)
      members[
        random.int(size.groups) === 0 ? 0 : Math.floor(size.groups * random.next() ** 2)
      ]?.push({ id: p.id });
  for (let g = 1; g < size.groups; g++)
    if (random.chance(0.1))
      members[random.int(g)]?.push({
        id: groupIds[g] as string,
        "@odata.type": "#microsoft.graph.group",
      });
  const groups: AzureGroupInput[] = groupIds.map((id, g) => ({
    id,
    "@odata.type": "#microsoft.graph.group",
    displayName: `group-${g}`,
    members: members[g] ?? [],
  }));

  // Resource groups and resources.
  const resourceGroups: AzureResourceInput[] = Array.from(
    { length: size.resourceGroups },
    (_, i) => ({
      id: `${SUB_SCOPE}/resourceGroups/rg-${i}`,
      name: `rg-${i}`,
      type: "Microsoft.Resources/resourceGroups",
      location: "westeurope",
      tags: { environment: random.chance(0.5) ? "prod" : "dev" },
    }),
  );
  const resources = Array.from({ length: size.resources }, (_, i): AzureResourceInput => {
    const rg = random.pick(resourceGroups);
    const type = random.pick(RESOURCE_TYPES);
    return {
      id: `${rg.id}/providers/${type}/res${i}`,
      name: `res${i}`,
      type,
      resourceGroup: rg.name ?? "",
      location: "westeurope",
      tags: random.chance(0.3) ? { confidentiality: "high" } : { confidentiality: "low" },
    };
  });

  // Assignments: broad roles high up to groups, narrow roles low down to anyone.
  const roleAssignments: AzureRoleAssignmentInput[] = [];
  for (let i = 0; i < size.assignments; i++) {
    const r = random.next();
    const scope =
      r < 0.02
        ? MG(random.pick(CHAIN))
        : r < 0.025
          ? MG(random.pick(OTHER_MGS))
          : r < 0.1
            ? SUB_SCOPE
            : r < 0.45
              ? (random.pick(resourceGroups).id as string)
              : (random.pick(resources).id as string);
    const high = r < 0.1;
    const toGroup = high ? random.chance(0.8) : random.chance(0.35);
    // Broad access goes to the smaller (team) groups; narrow access to any group.
    const group = high
      ? (groupIds[Math.floor(size.groups / 2) + random.int(Math.ceil(size.groups / 2))] as string)
      : random.pick(groupIds);
    const principal = toGroup
      ? { id: group, type: "Group" }
      : (() => {
          const p = random.pick(principals);
          return {
            id: p.id,
            type: p["@odata.type"] === "#microsoft.graph.user" ? "User" : "ServicePrincipal",
          };
        })();
    const role = random.chance(0.3)
      ? random.pick(custom)
      : random.chance(0.85)
        ? high
          ? random.pickSkewed(popular)
          : random.pick(popular)
        : random.pick(builtIns);
    const id = guid(0xa5500000, i);
    const conditional =
      role.permissions.some((p) => (p.dataActions ?? []).length > 0) && random.chance(0.15);
    roleAssignments.push({
      id: `${scope}/providers/Microsoft.Authorization/roleAssignments/${id}`,
      name: id,
      principalId: principal.id,
      principalType: principal.type,
      roleDefinitionId: role.id,
      roleDefinitionName: role.roleName,
      scope,
      ...(conditional
        ? {
            condition:
              "((!(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'})) OR (@Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name] StringEquals 'public'))",
            conditionVersion: "2.0",
          }
        : {}),
    });
  }

  const denyAssignments: AzureDenyAssignmentInput[] = Array.from(
    { length: size.denyAssignments },
    (_, i) => {
      const scope = (random.chance(0.5) ? random.pick(resourceGroups) : random.pick(resources)).id;
      const id = guid(0xde000000, i);
      return {
        id: `${scope}/providers/Microsoft.Authorization/denyAssignments/${id}`,
        name: id,
        properties: {
          denyAssignmentName: `deny-${i}`,
          scope,
          permissions: [
            { actions: random.chance(0.5) ? ["*/delete"] : ["*"], notActions: ["*/read"] },
          ],
          principals: random.chance(0.5)
            ? [{ id: ALL_PRINCIPALS, type: "SystemDefined" }]
            : [{ id: random.pick(groupIds), type: "Group" }],
          excludePrincipals: [{ id: random.pick(groupIds), type: "Group" }],
          doNotApplyToChildScopes: random.chance(0.2),
        },
      };
    },
  );

  return {
    subscriptionId: SUB,
    tenantId: guid(0x7e000000, 1),
    managementGroupAncestors: CHAIN,
    roleDefinitions: [...builtIns, ...custom],
    roleAssignments,
    denyAssignments,
    principals,
    groups,
    resourceGroups,
    resources,
  };
}
