import { defineConfig } from "vitest/config";
import { fromSources } from "../../vitest.shared.ts";

// Property and agreement tests run thousands of evaluations; CI machines are shared.
export default defineConfig({ ...fromSources, test: { testTimeout: 60_000 } });
