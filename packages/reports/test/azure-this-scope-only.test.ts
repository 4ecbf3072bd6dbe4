import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AzureSnapshot } from "@sightline/engine";
import { analyzeAzureSubscription } from "@sightline/engine/azure";
import { afterAll, describe, expect, it } from "vitest";
import { writeAzureReports } from "../src/index.ts";
import { readParquet } from "./read-parquet.ts";

// The engine's fixture (Microsoft Learn, deny assignments, DoNotApplyToChildScopes): user 1 holds
// Contributor at the subscription, less Microsoft.Storage/* at rg-data itself (a this-scope-only
// deny); user 3 the same, and less it in the storage account sadata with everything below it.
const repo = path.join(import.meta.dirname, "../../..");
const fixture = JSON.parse(
  await readFile(
    path.join(
      repo,
      "packages/engine/test/fixtures/azure/deny-assignment-this-scope-only-in-principal-rows.json",
    ),
    "utf8",
  ),
) as { snapshot: AzureSnapshot; builtInRoles: string[] };
const builtIns = JSON.parse(
  await readFile(
    path.join(repo, "packages/capabilities/reference/azure/built-in-roles-raw.json"),
    "utf8",
  ),
) as { roleName: string; name: string }[];
const snapshot: AzureSnapshot = {
  ...fixture.snapshot,
  roleDefinitions: [
    ...fixture.snapshot.roleDefinitions,
    ...fixture.builtInRoles.map((roleName) => {
      const role = builtIns.find((r) => r.roleName === roleName);
      if (!role) throw new Error(`no built-in role ${roleName}`);
      return {
        ...role,
        id: `/subscriptions/${fixture.snapshot.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${role.name}`,
      } as unknown as AzureSnapshot["roleDefinitions"][number];
    }),
  ],
};
const SUB = `/subscriptions/${fixture.snapshot.subscriptionId}`;
const RG = `${SUB}/resourceGroups/rg-data`;
const SADATA = `${RG}/providers/Microsoft.Storage/storageAccounts/sadata`;

const dir = await mkdtemp(path.join(tmpdir(), "sightline-azure-scope-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("Azure principal access rows: scopes cut at that scope only", () => {
  it("are a list of their own in every format, and except_resources holds scopes alone", async () => {
    await writeAzureReports({
      snapshot,
      analysis: analyzeAzureSubscription(snapshot),
      analysisTime: new Date("2026-03-04T07:15:36.947Z"),
      dir,
      formats: ["csv", "jsonl", "parquet"],
    });
    const file = (ext: string) => path.join(dir, `principal-access-summaries.${ext}`);
    const storageAdmin = (row: Record<string, unknown>) =>
      row.service_name === "Microsoft.Storage" &&
      row.access_capability === "administer-resource" &&
      row.resource_arn === "";
    const cut = (rows: Record<string, unknown>[], user: string) =>
      rows
        .filter((row) => storageAdmin(row) && String(row.principal_arn).endsWith(user))
        .map((row) => [row.except_resources, row.except_resources_this_scope_only]);

    const jsonl = (await readFile(file("jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(cut(jsonl, "0001")).toEqual([[[], [RG]]]);
    expect(cut(jsonl, "0003")).toEqual([[[SADATA], [RG]]]);

    const { rows: parquet } = await readParquet(file("parquet"));
    expect(cut(parquet as Record<string, unknown>[], "0001")).toEqual([[[], [RG]]]);
    expect(cut(parquet as Record<string, unknown>[], "0003")).toEqual([[[SADATA], [RG]]]);

    // The CSV has the same columns (Sightline's, for Azure): no suffix inside a scope either.
    const csv = await readFile(file("csv"), "utf8");
    expect(csv.split("\r\n")[0]?.endsWith(",granted_by,except_resources_this_scope_only")).toBe(
      true,
    );
    for (const text of [csv, await readFile(file("jsonl"), "utf8")])
      expect(text).not.toContain("this scope only");
  });
});
