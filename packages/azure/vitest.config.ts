import { defineConfig } from "vitest/config";
import { fromSources, loadedMachineTimeouts } from "../../vitest.shared.ts";

// Integration tests wait out real Retry-After delays (1 s) against the loopback fake.
export default defineConfig({ ...fromSources, test: { ...loadedMachineTimeouts } });
