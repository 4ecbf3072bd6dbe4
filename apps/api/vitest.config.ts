import { defineConfig } from "vitest/config";
import { fromSources, loadedMachineTimeouts } from "../../vitest.shared.ts";

export default defineConfig({
  ...fromSources,
  test: {
    globalSetup: ["./test/global-setup.ts"],
    ...loadedMachineTimeouts,
  },
});
