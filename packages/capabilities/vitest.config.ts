import { defineConfig } from "vitest/config";
import { fromSources, loadedMachineTimeouts } from "../../vitest.shared.ts";

// Some tests read the whole iam-data catalogue (thousands of files): on a cold cache and a busy
// CI machine that takes longer than vitest's 5 s default. A timeout here is a safety net, not a
// speed check (speed is measured by `pnpm bench`).
export default defineConfig({ ...fromSources, test: { ...loadedMachineTimeouts } });
