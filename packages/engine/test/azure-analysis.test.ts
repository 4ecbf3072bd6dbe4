import { describe, expect, it } from "vitest";
import { AZURE_SIZES, generateAzureTenant } from "../bench/generate-azure-tenant.ts";
import { Random } from "../bench/random.ts";
import { AzureAnalysis } from "../src/azure/analyze-azure.ts";
import {
  compileOperationPattern,
  matchOperation,
  sharedAzureOperationIndex,
} from "../src/azure/azure-operations.ts";
import {
  type AzureSnapshot,
  AzureSnapshotError,
  analyzeAzureSubscription,
  azureResourceMetadata,
} from "../src/azure/index.ts";
import { readAzureSnapshot } from "../src/azure/read-azure-snapshot.ts";
import type { PrincipalAccessSummary } from "../src/index.ts";

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

  it("names the field and the rule of a snapshot that cannot be analysed", () => {
    expect(thrown((s) => delete s.subscriptionId).field).toBe("subscriptionId");
    expect(thrown((s) => (s.subscriptionId = "not-a-guid")).message).toMatch(
      /subscriptionId must be a subscription GUID/,
    );
    expect(thrown((s) => (s.roleAssignments = {})).message).toBe("roleAssignments must be a list");
    expect(thrown((s) => delete s.roleDefinitions).field).toBe("roleDefinitions");
    expect(thrown((s) => (s.denyAssignments = "none")).message).toBe(
      "denyAssignments must be a list",
    );
    expect(thrown((s) => (s.managementGroupAncestors = ["root", 7])).field).toBe(
      "managementGroupAncestors[1]",
    );
    expect(thrown((s) => (s.cloud = "aws")).field).toBe("cloud");
    for (const input of [null, [], "snapshot.json"]) {
      expect(() => analyzeAzureSubscription(input as unknown as AzureSnapshot)).toThrow(
        new AzureSnapshotError("snapshot", "must be an object"),
      );
    }
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

describe("Azure principal rows read with their exceptions (generated tenant, many deny assignments)", () => {
  // Microsoft Learn, 'Understand Azure deny assignments', section 'Deny assignment properties':
  // DoNotApplyToChildScopes, when true, keeps the deny assignment off the child scopes. The
  // generator makes about one in five deny assignments so.
  const snapshot = generateAzureTenant({ ...AZURE_SIZES.small, denyAssignments: 40 }, 11);
  const analysis = analyzeAzureSubscription(snapshot);
  const index = sharedAzureOperationIndex();
  const lower = (s: string) => s.toLowerCase();
  const within = (scope: string, top: string) =>
    top === "" || scope === top || scope.startsWith(`${top}/`);
  /** Whether a row cuts a scope: inside a scope excepted with its subtree, or one excepted alone. */
  const excepts = (scope: string, row: PrincipalAccessSummary) =>
    row.exceptResources.some((e) => within(scope, lower(e))) ||
    (row.exceptResourcesThisScopeOnly ?? []).some((e) => scope === lower(e));
  const rows = new Map<string, PrincipalAccessSummary[]>();
  for (const row of analysis.principalAccessSummaries()) {
    const key = `${row.principalArn}|${row.service}|${row.capability}`;
    rows.set(key, [...(rows.get(key) ?? []), row]);
  }

  it("gives each scope the level its operations have there: never more, and less only where excepted", () => {
    expect(snapshot.denyAssignments?.some((d) => d.properties?.doNotApplyToChildScopes)).toBe(true);
    const random = new Random(3);
    const principals = [...new Set([...rows.keys()].map((k) => k.split("|")[0] as string))];
    const resources = (snapshot.resources ?? []).map((r) => r.id);
    const scopes = [...(snapshot.resourceGroups ?? []).map((r) => r.id), ...resources];
    // Half the requests where a row names exceptions: at an excepted scope, or inside one.
    const near: [string, string][] = [];
    for (const list of rows.values())
      for (const r of list)
        for (const at of [...r.exceptResources, ...(r.exceptResourcesThisScopeOnly ?? [])]) {
          expect(at, "a scope, with no suffix").toMatch(/^\/subscriptions\/[^ ]*$/i);
          near.push([r.principalArn, at]);
          for (const x of resources)
            if (within(lower(x), lower(at))) near.push([r.principalArn, x]);
        }
    let checked = 0;
    let excepted = 0;
    // Each request asks accessOf for every operation of every capability pair: 60 requests check
    // over a thousand (scope, capability) levels, in seconds on a loaded machine.
    for (let n = 0; n < 60; n++) {
      const [principal, at] =
        n % 2 === 0 ? random.pick(near) : [random.pick(principals), random.pick(scopes)];
      const scope = lower(at);
      const provider = /\/providers\/([^/]+)\//i.exec(scope)?.[1];
      for (const [k, pair] of index.pairs.entries()) {
        // A resource's rows hold its own provider's capabilities.
        if (provider && lower(pair.provider) !== lower(provider)) continue;
        const key = `${principal}|${pair.provider}|${pair.capability}`;
        const covering = (rows.get(key) ?? []).filter((r) => within(scope, lower(r.resourceArn)));
        if (!provider && covering.length === 0) continue;
        let want = 0;
        index.operations.forEach((op, i) => {
          if (want === 2 || !index.pairsOf[i]?.includes(k)) return;
          const level = analysis.accessOf(principal, op.operation, scope);
          want = Math.max(want, level === "allowed" ? 2 : level === "conditional" ? 1 : 0);
        });
        const held = covering.filter((r) => !excepts(scope, r));
        const got = Math.max(0, ...held.map((r) => (r.conditional ? 1 : 2)));
        const what = `${principal} ${pair.provider} ${pair.capability} at ${scope}`;
        expect(got, what).toBeLessThanOrEqual(want);
        // Only a row that excepts the scope may leave it short, and only a row that holds more
        // than the scope has may except it.
        if (got < want) expect(covering.length, what).toBeGreaterThan(held.length);
        for (const r of covering)
          if (!held.includes(r)) {
            expect(want, `${what}: ${r.resourceArn || "subscription"} row excepts it`).toBeLessThan(
              r.conditional ? 1 : 2,
            );
            excepted++;
          }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(excepted).toBeGreaterThan(0);
  });
});

describe("Azure analysis agreement with conditions of several forms (generated tenant)", () => {
  // Microsoft Learn, 'Azure role assignment condition format and syntax': conditions of the
  // page's forms (simple, suboperation, multiple actions, multiple conditions, wildcards) and
  // one that is not Azure's syntax ('Grouping and precedence'), spread over every tenth assignment.
  const BLOB = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs";
  const CONDITIONS = [
    `((!(ActionMatches{'${BLOB}/read'})) OR (@Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name] StringEquals 'blobs-example-container'))`,
    `((!(ActionMatches{'${BLOB}/read'} AND NOT SubOperationMatches{'Blob.List'})) OR (@Resource[${BLOB}/tags:Project<$key_case_sensitive$>] StringEquals 'Cascade'))`,
    `((!(ActionMatches{'${BLOB}/write'} AND SubOperationMatches{'Blob.Write.WithTagHeaders'}) AND !(ActionMatches{'${BLOB}/add/action'} AND SubOperationMatches{'Blob.Write.WithTagHeaders'})) OR (@Request[${BLOB}/tags:Project<$key_case_sensitive$>] StringEquals 'Cascade'))`,
    "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})) OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {5e467623-bb1f-42f4-a55d-6e525e11384b})) AND ((!(ActionMatches{'Microsoft.Authorization/roleAssignments/delete'})) OR (@Resource[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {5e467623-bb1f-42f4-a55d-6e525e11384b}))",
    "(!(ActionMatches{'*/write'} OR ActionMatches{'*/delete'})) OR (@Environment[isPrivateLink] BoolEquals true)",
    `!(ActionMatches{'${BLOB}/read'}) AND !(ActionMatches{'${BLOB}/write'}) OR @Request[x] StringEquals 'y'`,
  ];
  const generated = generateAzureTenant(AZURE_SIZES.small, 7);
  let next = 0;
  const snapshot: AzureSnapshot = {
    ...generated,
    roleAssignments: generated.roleAssignments.map((a, i) =>
      a.condition || i % 10 === 0
        ? { ...a, condition: CONDITIONS[next++ % CONDITIONS.length], conditionVersion: "2.0" }
        : a,
    ),
  };
  const analysis = analyzeAzureSubscription(snapshot);
  const bits = new AzureAnalysis(readAzureSnapshot(snapshot), sharedAzureOperationIndex());
  const operations = sharedAzureOperationIndex().operations;

  it("answers sampled requests of principals with conditions the same from the bit sets and from the assignments", () => {
    expect(analysis.issues.some((i) => i.path.endsWith(".condition"))).toBe(true);
    const conditioned = snapshot.roleAssignments.filter((a) => a.condition);
    const principals = analysis.principals.map((p) => p.principalArn);
    const scopes = ["", ...analysis.resources.map((r) => r.resourceArn)];
    const random = new Random(17);
    const seen = { allowed: 0, conditional: 0 };
    // The operations of each conditioned assignment's role (of the scope's provider at a resource).
    const ownOperations = conditioned.map((a) => {
      const role = snapshot.roleDefinitions.find((r) => r.id === a.roleDefinitionId);
      const patterns = (role?.permissions ?? []).flatMap((b) => [
        ...(b.actions ?? []),
        ...(b.dataActions ?? []),
      ]);
      const globs = patterns.map((pattern) => compileOperationPattern(pattern.toLowerCase()));
      const provider = /\/providers\/([^/]+)\/[^/]+\/[^/]+$/i.exec(a.scope)?.[1]?.toLowerCase();
      return operations
        .filter((o) => !provider || o.provider.toLowerCase() === provider)
        .filter((o) => globs.some((g) => matchOperation(g, o.operation)))
        .map((o) => o.operation);
    });
    for (let n = 0; n < 4000; n++) {
      // Half the requests by the assignee of a condition, at its scope, for its role's operations.
      const k = n % 2 === 0 ? random.int(conditioned.length) : -1;
      const a = conditioned[k];
      const own = ownOperations[k] ?? [];
      const p = a ? a.principalId : random.pick(principals);
      const op = own.length > 0 ? random.pick(own) : random.pick(operations).operation;
      const scope = a ? a.scope : random.pick(scopes);
      const direct = analysis.accessOf(p, op, scope);
      expect(bits.levelFromBits(p, op, scope), `${p} ${op} ${scope}`).toBe(direct);
      if (direct === "allowed" || direct === "conditional") seen[direct]++;
    }
    expect(seen.allowed).toBeGreaterThan(50);
    expect(seen.conditional).toBeGreaterThan(20);
  });
});
