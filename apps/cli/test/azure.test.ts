import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { loadAzureSnapshot, runAnalyzeAzure } from "../src/index.ts";

const run = promisify(execFile);
const bin = path.join(import.meta.dirname, "../bin/sightline.mjs");

const SUB = "33333333-3333-3333-3333-333333333333";
const S = `/subscriptions/${SUB}`;
const RG = `${S}/resourceGroups/rg-data`;
const SA = `${RG}/providers/Microsoft.Storage/storageAccounts/sadata`;
const ALICE = "aaaaaaaa-0000-0000-0000-00000000000a";
const MI = "bbbbbbbb-0000-0000-0000-00000000000b";
const OPS = "cccccccc-0000-0000-0000-00000000000c";

/** `az role definition list` output for some built-in roles (the reference data lacks `id`). */
async function builtInRoles(names: string[]) {
  const file = path.join(
    import.meta.dirname,
    "../../../packages/capabilities/reference/azure/built-in-roles-raw.json",
  );
  const all = JSON.parse(await readFile(file, "utf8")) as { name: string; roleName: string }[];
  return all
    .filter((r) => names.includes(r.roleName))
    .map((r) => ({ ...r, id: `${S}/providers/Microsoft.Authorization/roleDefinitions/${r.name}` }));
}

const assignment = (
  n: number,
  principalId: string,
  principalType: string,
  role: string,
  scope: string,
) => ({
  id: `${scope}/providers/Microsoft.Authorization/roleAssignments/dddddddd-0000-0000-0000-00000000000${n}`,
  name: `dddddddd-0000-0000-0000-00000000000${n}`,
  principalId,
  principalType,
  principalName: principalType === "User" ? "alice@contoso.example" : "",
  roleDefinitionId: `${S}/providers/Microsoft.Authorization/roleDefinitions/${role}`,
  roleDefinitionName: "",
  scope,
});

let dir: string;
let files: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sightline-azure-"));
  const roles = await builtInRoles(["Owner", "Reader", "Storage Blob Data Reader"]);
  const id = (name: string) => (roles.find((r) => r.roleName === name) as { name: string }).name;
  const contents: Record<string, unknown> = {
    "roles.json": roles,
    // `az rest` prints ARM's page: { "value": [...] }
    "assignments.json": {
      value: [
        assignment(1, ALICE, "User", id("Owner"), S),
        assignment(2, OPS, "Group", id("Reader"), RG),
        assignment(3, MI, "ServicePrincipal", id("Storage Blob Data Reader"), SA),
      ],
    },
    "deny.json": {
      value: [
        {
          id: `${SA}/providers/Microsoft.Authorization/denyAssignments/eeeeeeee-0000-0000-0000-000000000001`,
          properties: {
            denyAssignmentName: "locked by managed app",
            scope: SA,
            permissions: [
              { actions: ["*/delete"], notActions: [], dataActions: [], notDataActions: [] },
            ],
            principals: [{ id: "00000000-0000-0000-0000-000000000000", type: "SystemDefined" }],
            excludePrincipals: [],
            doNotApplyToChildScopes: false,
          },
        },
      ],
    },
    "groups.json": [
      {
        id: OPS,
        displayName: "ops",
        members: [
          {
            id: MI,
            "@odata.type": "#microsoft.graph.servicePrincipal",
            servicePrincipalType: "ManagedIdentity",
            displayName: "vm-identity",
          },
        ],
      },
    ],
    "principals.json": [
      {
        id: ALICE,
        "@odata.type": "#microsoft.graph.user",
        userPrincipalName: "alice@contoso.example",
      },
    ],
    "resource-groups.json": [
      {
        id: RG,
        name: "rg-data",
        type: "Microsoft.Resources/resourceGroups",
        tags: { environment: "prod" },
      },
    ],
    "resources.json": [
      {
        id: SA,
        name: "sadata",
        type: "Microsoft.Storage/storageAccounts",
        tags: { confidentiality: "high" },
      },
    ],
  };
  files = {};
  for (const [name, value] of Object.entries(contents)) {
    files[name] = path.join(dir, name);
    await writeFile(files[name] as string, JSON.stringify(value));
  }
});

const csv = async (out: string, report: string) => {
  const [header, ...lines] = (await readFile(path.join(out, `${report}.csv`), "utf8"))
    .trim()
    .split("\n");
  const names = (header as string).split(",");
  return lines.map((line) => {
    const cells =
      line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)
        ?.map((c) => c.replace(/,$/, "").replace(/^"|"$/g, "").replace(/""/g, '"')) ?? [];
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? ""]));
  });
};

describe("sightline analyze on an Azure subscription", () => {
  it("reads the az exports and writes the four reports and the issues", async () => {
    const out = path.join(dir, "report");
    const counts = await runAnalyzeAzure({
      subscriptionId: SUB,
      roleDefinitions: files["roles.json"],
      roleAssignments: files["assignments.json"],
      denyAssignments: files["deny.json"],
      groups: files["groups.json"],
      principals: files["principals.json"],
      resourceGroups: files["resource-groups.json"],
      resources: files["resources.json"],
      formats: ["csv"],
      out,
      progress: () => {},
    });
    expect(counts.issues).toBe(0);
    const principals = await csv(out, "principals");
    expect(
      principals.map((p) => [p.principal_arn, p.principal_type, p.principal_is_iam_admin]).sort(),
    ).toEqual([
      [ALICE, "AzureUser", "true"],
      [MI, "AzureManagedIdentity", "false"],
      [OPS, "AzureGroup", "false"],
    ]);
    const resources = await csv(out, "resources");
    expect(resources.map((r) => [r.resource_arn, r.resource_type, r.resource_name]).sort()).toEqual(
      [
        [S, "AzureSubscription", SUB],
        [RG, "AzureResourceGroup", "rg-data"],
        [SA, "AzureResource", "sadata"],
      ],
    );
    expect(resources.find((r) => r.resource_arn === RG)?.resource_tag_environment).toBe("prod");
    const access = await csv(out, "principal-access-summaries");
    expect(access).toContainEqual(
      expect.objectContaining({
        principal_arn: MI,
        service_name: "Microsoft.Storage",
        access_capability: "read-data",
        resource_arn: SA,
      }),
    );
    expect(access).toContainEqual(
      expect.objectContaining({
        principal_arn: ALICE,
        service_name: "Microsoft.Authorization",
        access_capability: "administer-resource",
        resource_arn: "",
      }),
    );
    const onAccount = await csv(out, "resource-access-summaries");
    // The deny on the storage account takes deletion away from Alice's Owner there; Owner's
    // `*` still generates user delegation keys (use-resource).
    const alice = onAccount.filter((r) => r.resource_arn === SA && r.principal_arn === ALICE);
    expect(alice.map((r) => r.access_capability).sort()).toEqual(
      [
        "administer-resource",
        "administer-resource",
        "read-config",
        "read-data",
        "use-resource",
      ].sort(),
    );
    expect(
      alice.find(
        (r) =>
          r.service_name === "Microsoft.Storage" && r.access_capability === "administer-resource",
      ),
    ).toBeDefined();
    expect(onAccount.find((r) => r.resource_arn === SA)?.resource_tag_confidentiality).toBe("high");
    expect(counts["principal-access-summaries"]).toBe(access.length);
  });

  it("one --azure-snapshot file gives the same analysis", async () => {
    const exported = await loadAzureSnapshot({
      subscriptionId: SUB,
      roleDefinitions: files["roles.json"],
      roleAssignments: files["assignments.json"],
      groups: files["groups.json"],
    });
    const file = path.join(dir, "snapshot.json");
    await writeFile(file, JSON.stringify(exported));
    const again = await loadAzureSnapshot({ snapshot: file, managementGroups: ["root", "prod"] });
    expect(again).toEqual({ ...exported, managementGroupAncestors: ["root", "prod"] });
    const out = path.join(dir, "from-snapshot");
    const { stdout } = await run(bin, [
      "analyze",
      "--azure-snapshot",
      file,
      "--format",
      "jsonl",
      "--out",
      out,
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ out, principals: 3, resources: 3, issues: 0 });
    const lines = (await readFile(path.join(out, "principals.jsonl"), "utf8")).trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).principal_type).sort()).toEqual([
      "AzureGroup",
      "AzureManagedIdentity",
      "AzureUser",
    ]);
  });

  it("leaves a malformed entry out with an issue in issues.json and analyses the rest", async () => {
    const file = path.join(dir, "one-bad-entry.json");
    const roles = JSON.parse(await readFile(files["roles.json"] as string, "utf8"));
    const assignments = JSON.parse(await readFile(files["assignments.json"] as string, "utf8"));
    await writeFile(
      file,
      JSON.stringify({
        subscriptionId: SUB,
        roleDefinitions: roles,
        roleAssignments: [
          { id: "x", principalId: "p", roleDefinitionId: "r" },
          ...assignments.value,
        ],
      }),
    );
    const out = path.join(dir, "one-bad-entry");
    const counts = await runAnalyzeAzure({
      snapshot: file,
      formats: ["csv"],
      out,
      progress: () => {},
    });
    const issues = JSON.parse(await readFile(path.join(out, "issues.json"), "utf8"));
    expect(issues).toEqual([
      {
        path: "roleAssignments[0].scope",
        message: "must be a non-empty string; the role assignment is ignored",
        severity: "error",
      },
    ]);
    expect(counts.issues).toBe(1);
    const principals = await csv(out, "principals");
    expect(principals.map((p) => p.principal_arn).sort()).toEqual([ALICE, MI, OPS].sort());
  });

  it("names the missing option, the conflicting one, and the malformed field", async () => {
    const fails = (args: string[], text: string) =>
      expect(run(bin, ["analyze", ...args, "--out", path.join(dir, "x")])).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining(text),
      });
    await fails(
      [
        "--azure-role-definitions",
        files["roles.json"] as string,
        "--azure-role-assignments",
        files["assignments.json"] as string,
      ],
      "--subscription is required",
    );
    await fails(
      ["--azure-snapshot", "s.json", "--azure-groups", "g.json"],
      "leave out --azure-groups",
    );
    await fails(
      ["--azure-snapshot", "s.json", "--authorization-details", "g.json"],
      "cannot be combined",
    );
    const bad = path.join(dir, "bad.json");
    await writeFile(
      bad,
      JSON.stringify({
        subscriptionId: SUB,
        roleDefinitions: [],
        roleAssignments: { id: "x", principalId: "p", roleDefinitionId: "r" },
      }),
    );
    await fails(["--azure-snapshot", bad], "roleAssignments must be a list");
    const roles = path.join(dir, "roles-object.json");
    await writeFile(roles, JSON.stringify({ roles: [] }));
    await fails(
      [
        "--azure-role-definitions",
        roles,
        "--azure-role-assignments",
        files["assignments.json"] as string,
        "--subscription",
        SUB,
      ],
      "expected a JSON list of role definitions",
    );
  });
});
