import { describe, expect, it } from "vitest";
import { getAzureCapabilityMap, listAzureOperations } from "../src/azure-map.ts";
import { compareActionNames } from "../src/capability.ts";

describe("Azure capability map", () => {
  const map = getAzureCapabilityMap();
  const ops = listAzureOperations();

  it("covers the reference operations, keyed by resource provider", () => {
    expect(ops.length).toBeGreaterThan(10000);
    expect(Object.keys(map)).toContain("Microsoft.Storage");
    for (const op of ops)
      expect(op.operation.split("/")[0]?.toLowerCase()).toBe(op.provider.toLowerCase());
  });

  it("has only wildcard-free operations, each with a capability, no case-insensitive duplicate", () => {
    expect(ops.filter((o) => o.operation.includes("*"))).toEqual([]);
    expect(ops.filter((o) => o.capabilities.length === 0)).toEqual([]);
    expect(new Set(ops.map((o) => o.operation.toLowerCase())).size).toBe(ops.length);
  });

  it("keeps each array sorted", () => {
    for (const caps of Object.values(map)) {
      for (const list of Object.values(caps))
        expect(list).toEqual([...list].sort(compareActionNames));
    }
  });

  it("treats role-assignment writes as administer-resource", () => {
    const admin = map["Microsoft.Authorization"]?.["administer-resource"] ?? [];
    expect(admin).toContain("Microsoft.Authorization/roleAssignments/write");
    expect(admin).toContain("Microsoft.Authorization/roleDefinitions/write");
  });

  it("classifies storage data actions by their verb", () => {
    const storage = map["Microsoft.Storage"] ?? {};
    const blob = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs";
    expect(storage["read-data"]).toContain(`${blob}/read`);
    expect(storage["write-data"]).toContain(`${blob}/write`);
    expect(storage["delete-data"]).toContain(`${blob}/delete`);
    expect(storage["read-config"]).toContain("Microsoft.Storage/storageAccounts/read");
    expect(storage["read-data"]).toContain("Microsoft.Storage/storageAccounts/listKeys/action");
    // A user delegation key is bounded by the caller's own data permissions: a login, not a key.
    const delegation =
      "Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action";
    expect(storage["use-resource"]).toContain(delegation);
    expect(storage["administer-resource"]).not.toContain(delegation);
  });

  it("marks data actions from the built-in roles as data", () => {
    const data = ops.filter((o) => o.isDataAction);
    expect(data.length).toBeGreaterThan(500);
    // Only a data action that reads metadata (Key Vault's readMetadata) is read-config.
    const config = data.filter((o) => o.capabilities.includes("read-config"));
    expect(config).not.toHaveLength(0);
    expect(config.every((o) => /metadata/i.test(o.operation))).toBe(true);
    expect(map["Microsoft.KeyVault"]?.["read-config"]).toContain(
      "Microsoft.KeyVault/vaults/secrets/readMetadata/action",
    );
  });
});
