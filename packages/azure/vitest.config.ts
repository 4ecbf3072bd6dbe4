import { defineConfig } from "vitest/config";
import { fromSources } from "../../vitest.shared.ts";

// Integration tests wait out real Retry-After delays (1 s) against the loopback fake.
export default defineConfig({ ...fromSources, test: { testTimeout: 60_000 } });
