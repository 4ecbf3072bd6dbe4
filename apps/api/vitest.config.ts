import { defineConfig } from "vitest/config";
import { fromSources } from "../../vitest.shared.ts";

export default defineConfig({
  ...fromSources,
  test: {
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
