import { describe, expect, it } from "vitest";
import {
  type AzureSnapshot,
  AzureSnapshotError,
  analyzeAzureSubscription,
  azureResourceMetadata,
  azureSnapshotSchema,
} from "../src/azure/index.ts";
import { readAzureSnapshot } from "../src/azure/read-azure-snapshot.ts";
import type { AccountAnalysis } from "../src/index.ts";

/**
 * The Azure snapshot read through its schema: a malformed entry of a list is left out with an
 * issue naming its path, and the rest is analysed as if it were not there; a snapshot that
 * cannot be analysed at all still throws `AzureSnapshotError` naming the field.
 */

const SUB = "11111111-1111-1111-1111-111111111111";
const SUB_SCOPE = `/subscriptions/${SUB}`;
const READER = "acdd72a7-3385-48ef-bd42-f606fba81ae7";
const CONTRIBUTOR = "b24988ac-6180-42a0-ab88-20f7382dd24c";
const USER = "aaaaaaaa-0000-0000-0000-000000000001";
const OTHER = "aaaaaaaa-0000-0000-0000-000000000002";
const GROUP = "bbbbbbbb-0000-0000-0000-000000000001";
const RG = `${SUB_SCOPE}/resourceGroups/rg-data`;
const GUID_X = "cccccccc-0000-0000-0000-000000000009";

const role = (guid: string, roleName: string, actions: string[]) => ({
  id: `${SUB_SCOPE}/providers/Microsoft.Authorization/roleDefinitions/${guid}`,
  name: guid,
  roleName,
  roleType: "BuiltInRole",
  assignableScopes: ["/"],
  permissions: [{ actions, notActions: [], dataActions: [], notDataActions: [] }],
});
const assignment = (n: number, principalId: string, guid: string, scope = SUB_SCOPE) => ({
  id: `${scope}/providers/Microsoft.Authorization/roleAssignments/${n}`,
  principalId,
  principalType: "User",
  roleDefinitionId: `/providers/Microsoft.Authorization/roleDefinitions/${guid}`,
  scope,
});

/** A user reading the subscription, another contributing to a resource group, a group. */
const valid = (): AzureSnapshot => ({
  subscriptionId: SUB,
  roleDefinitions: [role(READER, "Reader", ["*/read"]), role(CONTRIBUTOR, "Contributor", ["*"])],
  roleAssignments: [assignment(1, USER, READER), assignment(2, OTHER, CONTRIBUTOR, RG)],
  principals: [
    { id: USER, "@odata.type": "#microsoft.graph.user", userPrincipalName: "user@contoso" },
    { id: OTHER, "@odata.type": "#microsoft.graph.user", userPrincipalName: "other@contoso" },
  ],
  resourceGroups: [{ id: RG, name: "rg-data", tags: { owner: "data" } }],
});

/** What the tests compare: every row and access answer, without the issues. */
function results(analysis: AccountAnalysis) {
  return {
    principals: analysis.principals,
    resources: analysis.resources,
    principalRows: [...analysis.principalAccessSummaries()],
    resourceRows: [...analysis.resourceAccessSummaries()],
  };
}

/** The snapshot as JSON, mutable, for malformed input a type would refuse. */
const raw = (snapshot: AzureSnapshot = valid()) =>
  structuredClone(snapshot) as unknown as Record<string, Record<string, unknown>[]>;
const analyse = (snapshot: unknown) => analyzeAzureSubscription(snapshot as AzureSnapshot);

describe("reading an Azure snapshot through its schema", () => {
  it("analyses the valid snapshot with no issue", () => {
    const analysis = analyse(valid());
    expect(analysis.issues).toEqual([]);
    expect(analysis.accessOf(USER, "Microsoft.KeyVault/vaults/read", "*")).toBe("allowed");
    expect(analysis.accessOf(OTHER, "Microsoft.Compute/virtualMachines/write", RG)).toBe("allowed");
    expect(azureSnapshotSchema.safeParse(valid()).success).toBe(true);
  });

  it("leaves a malformed role assignment out with an issue naming its path; the rest is analysed as without it", () => {
    const snapshot = raw();
    const bad = { ...assignment(3, GROUP, CONTRIBUTOR), scope: 7 };
    snapshot.roleAssignments = [bad, ...(snapshot.roleAssignments ?? [])];
    const analysis = analyse(snapshot);
    expect(analysis.issues).toEqual([
      {
        path: "roleAssignments[0].scope",
        message: "must be a non-empty string; the role assignment is ignored",
        severity: "error",
      },
    ]);
    expect(analysis.accessOf(GROUP, "Microsoft.KeyVault/vaults/read", "*")).toBeUndefined();
    expect(analysis.principals.map((p) => p.principalArn).sort()).toEqual([USER, OTHER]);
    expect(results(analysis)).toEqual(results(analyse(valid())));
  });

  it("names every issue by the entry's place in the snapshot, after entries left out too", () => {
    const snapshot = raw();
    snapshot.roleAssignments = [
      { ...assignment(3, USER, READER), principalId: null } as unknown as Record<string, unknown>,
      ...(snapshot.roleAssignments ?? []),
      assignment(4, OTHER, "00000000-0000-0000-0000-0000000000ff"),
    ];
    const analysis = analyse(snapshot);
    expect(analysis.issues.map((i) => `${i.severity} ${i.path}: ${i.message}`)).toEqual([
      "error roleAssignments[0].principalId: must be a non-empty string; the role assignment is ignored",
      expect.stringMatching(
        /^error roleAssignments\[3\]\.roleDefinitionId: .*not in roleDefinitions/,
      ),
    ]);
    expect(results(analysis)).toEqual(results(analyse(valid())));
  });

  it("names an assignment outside its role's assignable scopes by its place in the snapshot", () => {
    const snapshot = raw();
    const custom = { ...role(GUID_X, "rg-data operator", ["*/read"]), roleType: "CustomRole" };
    snapshot.roleDefinitions?.push({ ...custom, assignableScopes: [RG] });
    snapshot.roleAssignments = [
      { id: "bad" },
      assignment(6, USER, "00000000-0000-0000-0000-0000000000ff"),
      assignment(7, OTHER, GUID_X),
    ];
    const analysis = analyse(snapshot);
    expect(analysis.issues.map((i) => `${i.severity} ${i.path}`)).toEqual([
      "error roleAssignments[0].principalId",
      "error roleAssignments[0].roleDefinitionId",
      "error roleAssignments[0].scope",
      "error roleAssignments[1].roleDefinitionId",
      "warning roleAssignments[2].scope",
    ]);
    expect(analysis.issues[4]?.message).toMatch(
      /outside the assignable scopes of role 'rg-data operator'/,
    );
    expect(analysis.accessOf(OTHER, "Microsoft.KeyVault/vaults/read", "*")).toBe("allowed");
  });

  it("leaves out each kind of malformed entry, naming its path, and analyses the rest", () => {
    type Snapshot = Record<string, Record<string, unknown>[]>;
    /** `fault` adds the malformed entry; `without` gives what the analysis must then equal (default: the valid snapshot). */
    const cases: {
      what: string;
      fault: (s: Snapshot) => void;
      without?: (s: Snapshot) => void;
      issue: string;
    }[] = [
      {
        what: "a role definition",
        fault: (s) => {
          s.roleDefinitions?.push({ ...role(GUID_X, "X", ["*"]), permissions: [{ actions: "*" }] });
        },
        issue:
          "roleDefinitions[2].permissions[0].actions: must be a list; the role definition is ignored",
      },
      {
        what: "a principal",
        fault: (s) => {
          s.principals?.unshift(null as unknown as Record<string, unknown>);
        },
        issue: "principals[0]: must be an object; the principal is ignored",
      },
      {
        what: "a group without members",
        fault: (s) => {
          s.groups = [{ id: GROUP, displayName: "g" }];
        },
        issue: "groups[0].members: is required: a list; the group is ignored",
      },
      {
        what: "a group member",
        fault: (s) => {
          s.groups = [{ id: GROUP, members: [{ id: USER }, { displayName: "no id" }] }];
        },
        without: (s) => {
          s.groups = [{ id: GROUP, members: [{ id: USER }] }];
        },
        issue: "groups[0].members[1].id: must be a non-empty string; the member is ignored",
      },
      {
        what: "a deny assignment under properties",
        fault: (s) => {
          s.denyAssignments = [{ id: "d1", properties: { scope: SUB_SCOPE, permissions: [] } }];
        },
        issue:
          "denyAssignments[0].properties.principals: is required: a list; the deny assignment is ignored",
      },
      {
        what: "a flat deny assignment",
        fault: (s) => {
          s.denyAssignments = [{ id: "d1", permissions: [], principals: [{ id: USER }] }];
        },
        issue:
          "denyAssignments[0].scope: must be a non-empty string; the deny assignment is ignored",
      },
      {
        what: "a resource",
        fault: (s) => {
          s.resources = [{ id: `${RG}/providers/Microsoft.Web/sites/app`, tags: { owner: 1 } }];
        },
        issue: "resources[0].tags.owner: must be a string; the resource is ignored",
      },
    ];
    for (const { what, fault, without, issue } of cases) {
      const snapshot = raw();
      fault(snapshot);
      const analysis = analyse(snapshot);
      expect(
        analysis.issues.map((i) => `${i.path}: ${i.message}`),
        what,
      ).toEqual([issue]);
      const expected = raw();
      without?.(expected);
      expect(results(analysis), what).toEqual(results(analyse(expected)));
    }
  });

  it("keeps the valid members of a group with a malformed one: they hold the group's access", () => {
    const snapshot = raw();
    snapshot.groups = [{ id: GROUP, members: [{ displayName: "no id" }, { id: OTHER }] }];
    snapshot.roleAssignments?.push({ ...assignment(5, GROUP, READER), principalType: "Group" });
    const analysis = analyse(snapshot);
    expect(analysis.issues.map((i) => i.path)).toEqual(["groups[0].members[0].id"]);
    expect(analysis.accessOf(OTHER, "Microsoft.KeyVault/vaults/read", "*")).toBe("allowed");
  });

  it("applies the valid deny assignments beside a malformed one", () => {
    const snapshot = raw();
    const deny = {
      scope: SUB_SCOPE,
      permissions: [{ actions: ["Microsoft.KeyVault/*"] }],
      principals: [{ id: USER, type: "User" }],
    };
    snapshot.denyAssignments = [
      { id: "d0", properties: { ...deny, principals: "everyone" } },
      { id: "d1", properties: deny },
    ];
    const analysis = analyse(snapshot);
    expect(analysis.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "denyAssignments[0].properties.principals: must be a list; the deny assignment is ignored",
    ]);
    expect(analysis.accessOf(USER, "Microsoft.KeyVault/vaults/read", "*")).toBe("denied");
    expect(analysis.accessOf(USER, "Microsoft.Compute/virtualMachines/read", "*")).toBe("allowed");
  });

  it("names the rows from the valid resource entries and skips a malformed one in the metadata", () => {
    const snapshot = raw();
    snapshot.resourceGroups?.unshift({ id: RG, name: 42 });
    const analysis = analyse(snapshot);
    expect(analysis.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "resourceGroups[0].name: must be a string or null; the resource group is ignored",
    ]);
    const metadata = azureResourceMetadata(
      snapshot as unknown as AzureSnapshot,
      analysis.resources,
    );
    expect(metadata.get(RG)).toEqual({ name: "rg-data", tags: { owner: "data" } });
  });

  it("still throws for a snapshot that cannot be analysed, naming the field", () => {
    const cases: [unknown, string, string][] = [
      [42, "snapshot", "snapshot must be an object"],
      [{ ...valid(), subscriptionId: undefined }, "subscriptionId", "must be a non-empty string"],
      [{ ...valid(), subscriptionId: "sub-1" }, "subscriptionId", "GUID, got 'sub-1'"],
      [{ ...valid(), roleAssignments: undefined }, "roleAssignments", "is required: a list"],
      [{ ...valid(), principals: {} }, "principals", "principals must be a list"],
      [{ ...valid(), tenantId: 1 }, "tenantId", "must be a string or null"],
      [{ ...valid(), cloud: "azure-china" }, "cloud", "'azure' or 'azure-government'"],
    ];
    for (const [input, field, message] of cases) {
      let error: unknown;
      try {
        readAzureSnapshot(input);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, field).toBeInstanceOf(AzureSnapshotError);
      expect((error as AzureSnapshotError).field).toBe(field);
      expect((error as AzureSnapshotError).message).toContain(message);
    }
  });

  it("does not change the snapshot it reads", () => {
    const snapshot = raw();
    snapshot.roleAssignments?.unshift({ id: "bad" });
    const before = structuredClone(snapshot);
    analyse(snapshot);
    expect(snapshot).toEqual(before);
    expect(Object.isFrozen(snapshot.roleAssignments)).toBe(false);
  });
});
