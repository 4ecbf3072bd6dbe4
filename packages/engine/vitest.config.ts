import { defineConfig } from "vitest/config";

// Property and agreement tests run thousands of evaluations; CI machines are shared.
export default defineConfig({ test: { testTimeout: 60_000 } });
