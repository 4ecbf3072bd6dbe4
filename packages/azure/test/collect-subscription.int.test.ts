import { type FakeAzure, smallTenant, startFakeAzure } from "@sightline/azure-fake";
import { afterEach, describe, expect, it } from "vitest";
import { collectSubscription } from "../src/collect/collect-subscription.ts";
import { createAppCredential } from "../src/credentials/app-credential.ts";

const {
  ALICE,
  AUDITORS,
  BLOB_CONDITION,
  BLOB_READER_MI,
  BOB,
  CAROL,
  CLIENT_ID,
  CLIENT_SECRET,
  DAVE,
  DEPLOYER,
  MANAGEMENT_GROUP,
  OPS_NESTED,
  PLATFORM_OPS,
  ROLES,
  SUBSCRIPTION_ID,
  TENANT_ID,
} = smallTenant;

let fake: FakeAzure | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function collect(
  options: { pageSize?: number; model?: ReturnType<typeof smallTenant.smallTenantModel> } = {},
  secret = CLIENT_SECRET,
) {
  fake = await startFakeAzure(options.model ?? smallTenant.smallTenantModel(), {
    pageSize: options.pageSize ?? 2,
  });
  const http = { trustedCertificates: fake.certificate, retryDelayMs: 50, maxRetryDelayMs: 200 };
  const credential = createAppCredential({
    tenantId: TENANT_ID,
    clientId: CLIENT_ID,
    secret: { kind: "secret", clientSecret: secret },
    endpoints: fake.endpoints,
    http,
  });
  return collectSubscription({
    subscriptionId: SUBSCRIPTION_ID,
    tenantId: TENANT_ID,
    cloud: "azure",
    credential,
    endpoints: fake.endpoints,
    http,
  });
}

describe("collectSubscription against the fake (ClientSecretCredential over HTTPS)", () => {
  it("collects the subscription's role configuration, directory objects and inventory in az's shapes", async () => {
    const { snapshot, metadata, warnings } = await collect();
    expect(warnings).toEqual([]);
    expect(snapshot.subscriptionId).toBe(SUBSCRIPTION_ID);
    expect(snapshot.tenantId).toBe(TENANT_ID);
    expect(snapshot.cloud).toBe("azure");
    expect(snapshot.managementGroupAncestors).toEqual([TENANT_ID, MANAGEMENT_GROUP]);

    // Assignments at the root, the management group, the subscription, a resource group and a
    // resource; not the one of a management group outside the chain.
    const principals = snapshot.roleAssignments.map((a) => a.principalId).sort();
    expect(principals).toEqual(
      [ALICE, AUDITORS, AUDITORS, BLOB_READER_MI, DEPLOYER, PLATFORM_OPS].sort(),
    );
    expect(principals).not.toContain(DAVE);
    const conditional = snapshot.roleAssignments.find((a) => a.principalId === BLOB_READER_MI);
    expect(conditional).toMatchObject({
      condition: BLOB_CONDITION,
      conditionVersion: "2.0",
      principalType: "ServicePrincipal",
      roleDefinitionName: "Storage Blob Data Reader",
      principalName: "mi-blob-reader",
    });
    expect(snapshot.roleAssignments.find((a) => a.principalId === ALICE)?.principalName).toBe(
      "alice@contoso.example",
    );

    // Built-in roles from the list; the management group's custom role read by its ID.
    const names = snapshot.roleDefinitions.map((d) => d.roleName).sort();
    expect(names).toEqual(
      Object.values(ROLES)
        .map((r) => r.roleName)
        .sort(),
    );
    const custom = snapshot.roleDefinitions.find((d) => d.roleName === "Platform Key Reader");
    expect(custom?.permissions[0]?.dataActions).toEqual([
      "Microsoft.KeyVault/vaults/secrets/getSecret/action",
    ]);
    expect(custom?.roleType).toBe("CustomRole");
    expect(
      snapshot.roleDefinitions.find((d) => d.roleName === "Contributor")?.permissions[0]
        ?.notActions,
    ).toContain("Microsoft.Authorization/*/Write");

    const deny = snapshot.denyAssignments?.[0];
    expect(deny?.properties?.excludePrincipals).toEqual([{ id: ALICE, type: "User" }]);

    // Groups with their transitive members (nested group included), with details.
    const ops = snapshot.groups?.find((g) => g.id === PLATFORM_OPS);
    expect(ops?.displayName).toBe("platform-ops");
    expect(ops?.members.map((m) => m.id).sort()).toEqual([BOB, OPS_NESTED].sort());
    expect(ops?.members.find((m) => m.id === BOB)?.userPrincipalName).toBe("bob@contoso.example");
    const auditors = snapshot.groups?.find((g) => g.id === AUDITORS);
    expect(auditors?.members.map((m) => m.id).sort()).toEqual([CAROL, DEPLOYER].sort());
    const mi = snapshot.principals?.find((p) => p.id === BLOB_READER_MI);
    expect(mi).toMatchObject({
      servicePrincipalType: "ManagedIdentity",
      "@odata.type": "#microsoft.graph.servicePrincipal",
    });
    expect(snapshot.principals?.map((p) => p.id)).toEqual(
      expect.arrayContaining([ALICE, BOB, CAROL]),
    );

    expect(snapshot.resourceGroups?.map((g) => g.name).sort()).toEqual(["rg-app", "rg-data"]);
    expect(snapshot.resources?.find((r) => r.name === "stdata01")).toMatchObject({
      resourceGroup: "rg-data",
      type: "Microsoft.Storage/storageAccounts",
      tags: { business_unit: "finance" },
    });
    expect(metadata).toMatchObject({
      provider: "azure",
      subscriptionName: "contoso-prod",
      counts: { roleAssignments: 6, denyAssignments: 1, groups: 2, resources: 2 },
    });
  });

  it("follows nextLink and @odata.nextLink: a page size of 1 gives the same snapshot", async () => {
    const paged = await collect({ pageSize: 1 });
    const calls = fake?.calls ?? [];
    expect(
      calls.filter((c) => c.path.includes("roleAssignments") && c.path.includes("skiptoken"))
        .length,
    ).toBe(5);
    expect(calls.some((c) => c.service === "graph" && c.path.includes("skiptoken"))).toBe(true);
    await fake?.close();
    fake = undefined;
    const whole = await collect({ pageSize: 100 });
    expect(paged.snapshot).toEqual(whole.snapshot);
  });

  it("gets one token per API from the token endpoint, after OpenID discovery", async () => {
    await collect();
    const token = (fake?.calls ?? []).filter((c) => c.service === "token");
    expect(
      token.some((c) => c.path.includes(`/${TENANT_ID}/v2.0/.well-known/openid-configuration`)),
    ).toBe(true);
    expect(
      token.filter((c) => c.method === "POST" && c.path.includes("/oauth2/v2.0/token")),
    ).toHaveLength(2);
  });
});
