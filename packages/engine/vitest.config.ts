import { defineConfig } from "vitest/config";
import { fromSources, loadedMachineTimeouts } from "../../vitest.shared.ts";

// Property and agreement tests run thousands of evaluations; CI machines are shared.
export default defineConfig({ ...fromSources, test: { ...loadedMachineTimeouts } });
