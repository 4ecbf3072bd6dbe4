import { writeFileSync } from "node:fs";
import { buildGeneratedFiles } from "./build-generated.ts";

// Regenerates src/generated/ from iam-data and the Azure reference files.
const outDir = new URL("../src/generated/", import.meta.url);
for (const [name, text] of Object.entries(await buildGeneratedFiles())) {
  writeFileSync(new URL(name, outDir), text);
  console.log(`wrote src/generated/${name} (${text.length} bytes)`);
}
