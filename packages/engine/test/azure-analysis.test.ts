import { describe, expect, it } from "vitest";
import { AZURE_SIZES, generateAzureTenant } from "../bench/generate-azure-tenant.ts";
import { Random } from "../bench/random.ts";
import { AzureAnalysis } from "../src/azure/analyze-azure.ts";
import { sharedAzureOperationIndex } from "../src/azure/azure-operations.ts";
import { readAzureSnapshot } from "../src/azure/read-azure-snapshot.ts";
import {
  type AzureSnapshot,
  AzureSnapshotError,
  analyzeAzureSubscription,
  azureResourceMetadata,
} from "../src/index.ts";

const SUB = "11111111-1111-1111-1111-111111111111";
const minimal = (): AzureSnapshot => ({
  subscriptionId: SUB,
  roleDefinitions: [
    {
      id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7`,
      name: "acdd72a7-3385-48ef-bd42-f606fba81ae7",
      roleName: "Reader",
      roleType: "BuiltInRole",
      assignableScopes: ["/"],
      permissions: [{ actions: ["*/read"], notActions: [], dataActions: [], notDataActions: [] }],
    },
  ],
  roleAssignments: [
    {
      id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments/a1`,
      principalId: "aaaaaaaa-0000-0000-0000-000000000001",
      principalType: "User",
      roleDefinitionId:
        "/providers/Microsoft.Authorization/roleDefinitions/ACDD72A7-3385-48EF-BD42-F606FBA81AE7",
      scope: `/subscriptions/${SUB}`,
    },
  ],
});

function thrown(mutate: (s: Record<string, unknown>) => void): AzureSnapshotError {
  const snapshot = structuredClone(minimal()) as unknown as Record<string, unknown>;
  mutate(snapshot);
  try {
    analyzeAzureSubscription(snapshot as unknown as AzureSnapshot);
  } catch (error) {
    expect(error).toBeInstanceOf(AzureSnapshotError);
    return error as AzureSnapshotError;
  }
  throw new Error("expected an AzureSnapshotError");
}

describe("analyzeAzureSubscription input", () => {
  it("reads a minimal snapshot; role definition IDs match by GUID whatever their scope and case", () => {
    const analysis = analyzeAzureSubscription(minimal());
    expect(analysis.issues).toEqual([]);
    expect(
      analysis.accessOf(
        "aaaaaaaa-0000-0000-0000-000000000001",
        "Microsoft.Compute/virtualMachines/write",
        "",
      ),
    ).toBe("denied");
    expect(
      analysis.accessOf(
        "AAAAAAAA-0000-0000-0000-000000000001",
        "Microsoft.KeyVault/vaults/read",
        "*",
      ),
    ).toBe("allowed");
    expect(analysis.accessOf("unknown", "Microsoft.KeyVault/vaults/read", "")).toBeUndefined();
    expect(
      analysis.accessOf("aaaaaaaa-0000-0000-0000-000000000001", "Microsoft.Nope/x/read", ""),
    ).toBeUndefined();
    expect(analysis.principals).toMatchObject([
      {
        principalArn: "aaaaaaaa-0000-0000-0000-000000000001",
        principalType: "AzureUser",
        accountId: SUB,
        iamAdmin: "no",
      },
    ]);
    expect(analysis.resources).toEqual([
      {
        resourceArn: `/subscriptions/${SUB}`,
        resourceType: "AzureSubscription",
        service: "Microsoft.Resources",
        accountId: SUB,
        allowsAnyPrincipal: false,
      },
    ]);
  });

  it("names the rows' scopes from the resource lists, whatever the case, else by their last segment", () => {
    const rg = `/subscriptions/${SUB}/resourceGroups/RG-Data`;
    const snapshot = minimal();
    const analysis = analyzeAzureSubscription({
      ...snapshot,
      roleAssignments: [
        ...snapshot.roleAssignments,
        {
          ...(snapshot.roleAssignments[0] as AzureSnapshot["roleAssignments"][number]),
          id: "x/2",
          scope: rg,
        },
        {
          ...(snapshot.roleAssignments[0] as AzureSnapshot["roleAssignments"][number]),
          id: "x/3",
          scope: `${rg}/providers/Microsoft.Web/sites/app1`,
        },
      ],
      resourceGroups: [
        {
          id: rg.toLowerCase(),
          name: "rg-data",
          type: "Microsoft.Resources/resourceGroups",
          tags: { owner: "data" },
        },
      ],
    });
    const metadata = azureResourceMetadata(
      {
        resourceGroups: [
          { id: rg.toLowerCase(), name: "rg-data", type: "x", tags: { owner: "data" } },
        ],
      },
      analysis.resources,
    );
    expect(Object.fromEntries(metadata)).toEqual({
      [`/subscriptions/${SUB}`]: { name: SUB },
      [rg]: { name: "rg-data", tags: { owner: "data" } },
      [`${rg}/providers/Microsoft.Web/sites/app1`]: { name: "app1" },
    });
    expect(analysis.resources.map((r) => r.resourceType)).toEqual([
      "AzureSubscription",
      "AzureResourceGroup",
      "AzureResource",
    ]);
    expect(analysis.resources[2]?.service).toBe("Microsoft.Web");
  });

  it("names the field and the rule of malformed input", () => {
    expect(thrown((s) => delete s.subscriptionId).field).toBe("subscriptionId");
    expect(thrown((s) => (s.subscriptionId = "not-a-guid")).message).toMatch(
      /subscriptionId must be a subscription GUID/,
    );
    expect(thrown((s) => (s.roleAssignments = {})).message).toBe("roleAssignments must be a list");
    expect(thrown((s) => delete s.roleDefinitions).field).toBe("roleDefinitions");
    expect(
      thrown(
        (s) =>
          (((s.roleAssignments as Record<string, unknown>[])[0] as Record<string, unknown>).scope =
            7),
      ).field,
    ).toBe("roleAssignments[0].scope");
    expect(
      thrown(
        (s) =>
          ((
            (
              (s.roleDefinitions as Record<string, unknown>[])[0] as {
                permissions: Record<string, unknown>[];
              }
            ).permissions[0] as Record<string, unknown>
          ).notActions = "x"),
      ).field,
    ).toBe("roleDefinitions[0].permissions[0].notActions");
    expect(
      thrown((s) => (s.denyAssignments = [{ id: "d", properties: { scope: "/" } }])).field,
    ).toBe("denyAssignments[0].properties.principals");
    expect(thrown((s) => (s.groups = [{ id: "g" }])).field).toBe("groups[0].members");
    expect(thrown((s) => (s.cloud = "aws")).field).toBe("cloud");
  });

  it("records soft problems as issues: unknown role, another subscription, unknown operation", () => {
    const snapshot = minimal();
    const analysis = analyzeAzureSubscription({
      ...snapshot,
      roleDefinitions: [
        ...snapshot.roleDefinitions,
        {
          id: "/providers/Microsoft.Authorization/roleDefinitions/eeee",
          name: "eeee",
          roleName: "typo",
          roleType: "CustomRole",
          permissions: [{ actions: ["Microsoft.Compute/virtualMachines/rstart/action"] }],
        },
      ],
      roleAssignments: [
        ...snapshot.roleAssignments,
        {
          ...(snapshot.roleAssignments[0] as AzureSnapshot["roleAssignments"][number]),
          id: "x/2",
          roleDefinitionId: "/x/roleDefinitions/missing",
        },
        {
          ...(snapshot.roleAssignments[0] as AzureSnapshot["roleAssignments"][number]),
          id: "x/3",
          scope: "/subscriptions/22222222-2222-2222-2222-222222222222",
        },
        {
          ...(snapshot.roleAssignments[0] as AzureSnapshot["roleAssignments"][number]),
          id: "x/4",
          roleDefinitionId: "eeee",
        },
      ],
    });
    const messages = analysis.issues.map((i) => `${i.severity} ${i.path}: ${i.message}`);
    expect(messages).toEqual([
      expect.stringMatching(
        /^error roleAssignments\[1\]\.roleDefinitionId: .*not in roleDefinitions/,
      ),
      expect.stringMatching(/^warning roleAssignments\[2\]\.scope: .*another subscription/),
      expect.stringMatching(
        /^warning roleDefinitions\[1\]\.permissions\[0\]\.actions\[0\]: .*not in the Azure operation catalogue/,
      ),
    ]);
  });
});

describe("Azure analysis agreement (generated tenant)", () => {
  const snapshot = generateAzureTenant(AZURE_SIZES.small, 7);
  const analysis = analyzeAzureSubscription(snapshot);
  const bits = new AzureAnalysis(readAzureSnapshot(snapshot), sharedAzureOperationIndex());
  const operations = sharedAzureOperationIndex().operations;

  it("answers every sampled request the same from the bit sets and from the assignments", () => {
    const random = new Random(99);
    const principals = analysis.principals.map((p) => p.principalArn);
    const scopes = [
      "",
      ...analysis.resources.map((r) => r.resourceArn),
      ...(snapshot.resources ?? []).map((r) => r.id),
    ];
    let allowed = 0;
    for (let n = 0; n < 3000; n++) {
      const p = random.pick(principals);
      const op = random.pick(operations).operation;
      const scope = random.pick(scopes);
      const direct = analysis.accessOf(p, op, scope);
      expect(bits.levelFromBits(p, op, scope), `${p} ${op} ${scope}`).toBe(direct);
      if (direct !== "denied") allowed++;
    }
    expect(allowed).toBeGreaterThan(100);
  });

  it("a subscription-wide row holds when some operation of the capability is allowed at the subscription", () => {
    const byKey = new Map<string, boolean>();
    for (const row of analysis.principalAccessSummaries())
      if (row.resourceArn === "")
        byKey.set(`${row.principalArn}|${row.service}|${row.capability}`, row.conditional);
    const random = new Random(5);
    const principals = analysis.principals.map((p) => p.principalArn);
    let checked = 0;
    for (let n = 0; n < 2000; n++) {
      const p = random.pick(principals);
      const op = random.pick(operations);
      const level = analysis.accessOf(p, op.operation, "");
      if (level !== "denied") checked++;
      for (const capability of op.capabilities) {
        const row = byKey.get(`${p}|${op.provider}|${capability}`);
        if (level === "allowed") expect(row, `${p} ${op.operation}`).toBe(false);
        if (level === "conditional") expect(row, `${p} ${op.operation}`).toBeDefined();
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("every row names the role assignments that grant it", () => {
    const ids = new Set(snapshot.roleAssignments.map((a) => a.id));
    let rows = 0;
    for (const row of analysis.principalAccessSummaries()) {
      rows++;
      expect(row.grantedBy?.length).toBeGreaterThan(0);
      for (const g of row.grantedBy ?? []) expect(ids.has(g.policyArn ?? "")).toBe(true);
    }
    let resourceRows = 0;
    for (const row of analysis.resourceAccessSummaries()) {
      resourceRows++;
      expect(row.grantedBy?.length).toBeGreaterThan(0);
    }
    expect(rows).toBeGreaterThan(1000);
    expect(resourceRows).toBeGreaterThan(1000);
  });
});
