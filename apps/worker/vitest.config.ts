import { defineConfig } from "vitest/config";
import { fromSources } from "../../vitest.shared.ts";

// The tests start the built worker as a process of its own.
export default defineConfig({
  ...fromSources,
  test: {
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
