import { defineConfig } from "vitest/config";

// Some tests start the CLI as a process (tsx compiles on start), slow on a busy CI machine.
export default defineConfig({ test: { testTimeout: 60_000 } });
