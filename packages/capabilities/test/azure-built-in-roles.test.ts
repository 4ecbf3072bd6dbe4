import { describe, expect, it } from "vitest";
import { AZURE_BUILT_IN_ROLE_EXCEPTIONS } from "../scripts/azure-role-exceptions.ts";
import {
  formatAzureRoleResult,
  pooledAzureAgreement,
  runAzureRoleChecks,
} from "../scripts/azure-roles.ts";

// Azure's built-in roles are labels written by Microsoft: the Azure map must agree with them, and
// every disagreement must be a documented exception.
describe("Azure map against the built-in roles", () => {
  const results = runAzureRoleChecks();
  const byId = new Map(results.map((r) => [r.label.id, r]));

  it("agrees with each role label above its floor", () => {
    for (const r of results) console.log(formatAzureRoleResult(r));
    expect(byId.get("data-reader")?.label.roles.length).toBeGreaterThan(20);
    expect(byId.get("data-reader")?.agreement).toBeGreaterThanOrEqual(0.98);
    expect(byId.get("data-contributor")?.agreement).toBeGreaterThanOrEqual(0.98);
    expect(byId.get("reader")?.compared).toBeGreaterThan(3000);
    expect(byId.get("reader")?.agreement).toBe(1);
    expect(byId.get("authorization-admin")?.agreement).toBe(1);
    expect(pooledAzureAgreement(results).agreement).toBeGreaterThanOrEqual(0.99);
  });

  it("gives Owner and User Access Administrator role-assignment writes as administer-resource", () => {
    const auth = byId.get("authorization-admin");
    expect(auth?.compared).toBeGreaterThan(20);
  });

  it("has no unexplained disagreement and no stale exception", () => {
    const unexplained = results.flatMap((r) =>
      r.disagreements.filter((d) => !d.reason).map((d) => `${r.label.id} ${d.operation}`),
    );
    expect(unexplained).toEqual([]);
    const disagreeing = new Set(
      results.flatMap((r) => r.disagreements.map((d) => `${r.label.id} ${d.operation}`)),
    );
    const stale = Object.entries(AZURE_BUILT_IN_ROLE_EXCEPTIONS).flatMap(([id, ops]) =>
      Object.keys(ops)
        .map((op) => `${id} ${op}`)
        .filter((key) => !disagreeing.has(key)),
    );
    expect(stale).toEqual([]);
  });
});
