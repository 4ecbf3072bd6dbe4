import { defineConfig } from "vitest/config";
import { fromSources, loadedMachineTimeouts } from "../../vitest.shared.ts";

// Integration tests wait out the SDK's real retry back-off against the loopback fake.
export default defineConfig({ ...fromSources, test: { ...loadedMachineTimeouts } });
