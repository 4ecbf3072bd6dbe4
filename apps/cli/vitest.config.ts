import { defineConfig } from "vitest/config";
import { fromSources } from "../../vitest.shared.ts";

// Some tests start the CLI as a process, slow on a busy CI machine; `snapshot import` tests
// get a migrated database of their own (DATABASE_URL's server, or an embedded Postgres).
export default defineConfig({
  ...fromSources,
  test: {
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
