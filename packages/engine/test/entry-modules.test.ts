import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What loading an entry of the engine loads: its modules are followed through their import and
// export declarations, `import type` and `export type` left out (erased at run time; an import
// of named types alone still loads its module). The packages reached are listed.

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "src");
const DECLARATION = /^(?:import|export)\s+(type\s+)?(?:[^;"'`]*?\sfrom\s+)?["']([^"']+)["']/gm;

function packagesLoadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, typeOnly, specifier] of readFileSync(file, "utf8").matchAll(DECLARATION)) {
      if (typeOnly || !specifier) continue;
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(path.join(src, entry));
  return packages;
}

describe("the engine's entries", () => {
  it("the main entry loads no zod: a process analysing AWS accounts does not pay for Azure's input schema", () => {
    const loaded = packagesLoadedBy("index.ts");
    expect(loaded).toContain("@sightline/capabilities");
    expect([...loaded].filter((name) => name === "zod" || name.startsWith("zod/"))).toEqual([]);
  });

  it("the Azure entry loads zod (what the main entry leaves out)", () => {
    expect(packagesLoadedBy("azure/index.ts")).toContain("zod");
  });
});
