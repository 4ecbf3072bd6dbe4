#!/usr/bin/env node
// Runs the compiled command line (`pnpm build` writes dist/).
import { existsSync } from "node:fs";

const entry = new URL("../dist/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("sightline: not built yet; run `npx -y pnpm@10 build` first\n");
  process.exit(2);
}
await import(entry.href);
