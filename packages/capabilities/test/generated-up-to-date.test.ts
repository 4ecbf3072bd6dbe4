import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildGeneratedFiles } from "../scripts/build-generated.ts";

// The committed JSON must be exactly what the generator makes now: a rule, override or source
// change without `pnpm --filter @sightline/capabilities generate` fails here.
describe("committed generated files", () => {
  it("equal a fresh generation", async () => {
    const fresh = await buildGeneratedFiles();
    expect(Object.keys(fresh).sort()).toEqual(["aws-actions.json", "azure-operations.json"]);
    for (const [name, text] of Object.entries(fresh)) {
      const committed = readFileSync(new URL(`../src/generated/${name}`, import.meta.url), "utf8");
      expect(committed === text, `src/generated/${name} is stale: run pnpm generate`).toBe(true);
    }
  }, 60_000);
});
