/**
 * Collection of a synthetic tenant through the loopback HTTPS fake: the benchmark size
 * (20,000 principals, 500 groups, 2,000 role assignments across management groups, the
 * subscription, resource groups and resources, 50 custom roles). Measures the wall time, the
 * requests, and the collector's RSS; the fake runs in the same process, so times include it.
 *
 *   pnpm --filter @sightline/azure bench
 */

import { type FakeAzureModel, smallTenant, startFakeAzure } from "@sightline/azure-fake";
import { collectSubscription } from "../src/collect/collect-subscription.ts";
import { createAppCredential } from "../src/credentials/app-credential.ts";

const USERS = 19_000;
const SERVICE_PRINCIPALS = 1_000;
const GROUPS = 500;
const ASSIGNMENTS = 2_000;
const CUSTOM_ROLES = 50;

const uuid = (kind: number, i: number) =>
  `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

function model(): FakeAzureModel {
  const base = smallTenant.smallTenantModel();
  const sub = `/subscriptions/${base.subscriptionId}`;
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: uuid(1, i),
    displayName: `user ${i}`,
    userPrincipalName: `user${i}@contoso.example`,
  }));
  const sps = Array.from({ length: SERVICE_PRINCIPALS }, (_, i) => ({
    id: uuid(2, i),
    displayName: `sp ${i}`,
    appId: uuid(3, i),
    servicePrincipalType: i % 3 === 0 ? "ManagedIdentity" : "Application",
  }));
  // Each group has 40 users and 2 service principals; every tenth nests the next one.
  const groups = Array.from({ length: GROUPS }, (_, g) => ({
    id: uuid(4, g),
    displayName: `group ${g}`,
    memberIds: [
      ...Array.from({ length: 40 }, (_, k) => uuid(1, (g * 38 + k) % USERS)),
      uuid(2, (g * 2) % SERVICE_PRINCIPALS),
      uuid(2, (g * 2 + 1) % SERVICE_PRINCIPALS),
      ...(g % 10 === 0 && g + 1 < GROUPS ? [uuid(4, g + 1)] : []),
    ],
  }));
  const customRoles = Array.from({ length: CUSTOM_ROLES }, (_, r) => ({
    id: `/providers/Microsoft.Authorization/roleDefinitions/${uuid(5, r)}`,
    name: uuid(5, r),
    roleName: `custom ${r}`,
    roleType: "CustomRole",
    assignableScopes: [sub],
    permissions: [
      {
        actions: [`Microsoft.Storage/storageAccounts/read`],
        notActions: [],
        dataActions: [],
        notDataActions: [],
      },
    ],
  }));
  const roles = [...Object.values(smallTenant.ROLES), ...customRoles];
  const resourceGroups = Array.from({ length: 50 }, (_, i) => ({
    id: `${sub}/resourceGroups/rg-${i}`,
    name: `rg-${i}`,
    type: "Microsoft.Resources/resourceGroups",
    tags: {},
  }));
  const resources = Array.from({ length: 2_000 }, (_, i) => ({
    id: `${sub}/resourceGroups/rg-${i % 50}/providers/Microsoft.Storage/storageAccounts/st${i}`,
    name: `st${i}`,
    type: "Microsoft.Storage/storageAccounts",
    tags: { environment: i % 2 ? "prod" : "dev" },
  }));
  const scopes = [
    "/",
    `/providers/Microsoft.Management/managementGroups/${smallTenant.MANAGEMENT_GROUP}`,
    sub,
    ...resourceGroups.map((g) => g.id),
    ...resources.slice(0, 200).map((r) => r.id),
  ];
  const roleAssignments = Array.from({ length: ASSIGNMENTS }, (_, i) => {
    const kind = i % 4;
    const [principalId, principalType] =
      kind === 0
        ? [uuid(4, Math.floor(i / 4) % GROUPS), "Group"]
        : kind === 1
          ? [uuid(2, i % SERVICE_PRINCIPALS), "ServicePrincipal"]
          : [uuid(1, (i * 7) % USERS), "User"];
    const role = roles[i % roles.length] ?? roles[0];
    const scope = scopes[i % scopes.length] ?? sub;
    const name = uuid(6, i);
    return {
      id: `${scope === "/" ? "" : scope}/providers/Microsoft.Authorization/roleAssignments/${name}`,
      name,
      principalId: principalId as string,
      principalType: principalType as string,
      roleDefinitionId: role?.id ?? "",
      scope,
    };
  });
  return {
    ...base,
    roleDefinitions: roles,
    roleAssignments,
    denyAssignments: base.denyAssignments,
    resourceGroups,
    resources,
    users,
    servicePrincipals: sps,
    groups,
  };
}

const fake = await startFakeAzure(model(), { pageSize: 1000 });
const http = { trustedCertificates: fake.certificate };
const credential = createAppCredential({
  tenantId: smallTenant.TENANT_ID,
  clientId: smallTenant.CLIENT_ID,
  secret: { kind: "secret", clientSecret: smallTenant.CLIENT_SECRET },
  endpoints: fake.endpoints,
  http,
});
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
for (const concurrency of [4, 16]) {
  fake.calls.length = 0;
  const t0 = performance.now();
  const { snapshot, metadata } = await collectSubscription({
    subscriptionId: smallTenant.SUBSCRIPTION_ID,
    tenantId: smallTenant.TENANT_ID,
    cloud: "azure",
    credential,
    endpoints: fake.endpoints,
    http,
    concurrency,
  });
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const bytes = Buffer.byteLength(JSON.stringify(snapshot));
  console.log(
    `concurrency ${concurrency}: ${seconds} s, ${fake.calls.length} requests (${fake.calls.filter((c) => c.service === "graph").length} Graph), ` +
      `${metadata.counts.roleAssignments} assignments, ${metadata.counts.principals} principals, ${metadata.counts.groups} groups, ` +
      `snapshot ${(bytes / 1024 ** 2).toFixed(1)} MiB JSON, RSS ${((process.memoryUsage().rss - rssBefore) / 1024 ** 2).toFixed(0)} MiB above start`,
  );
}
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
await fake.close();
