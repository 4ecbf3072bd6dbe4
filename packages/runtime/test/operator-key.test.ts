import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { silentLogger as logger } from "@sightline/logging";
import { afterAll, describe, expect, it } from "vitest";
import { estimateEntropyBits, loadOperatorKey, OPERATOR_KEY_MIN_BITS } from "../src/index.ts";

const root = await mkdtemp(path.join(tmpdir(), "sightline-runtime-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("estimateEntropyBits", () => {
  it("scores repetition at zero and a random key above the minimum", () => {
    expect(estimateEntropyBits("a".repeat(64))).toBe(0);
    const random = "q9V2xL0pZr7Ck4mW8sYt1bN6hJ3dF5gA0eR2uI9oP7lK4jH6";
    expect(estimateEntropyBits(random)).toBeGreaterThan(OPERATOR_KEY_MIN_BITS);
  });
});

describe("loadOperatorKey", () => {
  it("returns the configured key and writes nothing", async () => {
    const dataDir = path.join(root, "configured");
    expect(await loadOperatorKey({ configured: "given", dataDir, logger })).toBe("given");
    await expect(stat(dataDir)).rejects.toThrow();
  });

  it("generates a key on first start into <dataDir>/admin-key (mode 600) and reuses it", async () => {
    const dataDir = path.join(root, "generated");
    const first = await loadOperatorKey({ configured: undefined, dataDir, logger });
    expect(first).toMatch(/^sl_admin_[A-Za-z0-9_-]{43}$/);
    const file = path.join(dataDir, "admin-key");
    expect(await readFile(file, "utf8")).toBe(`${first}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadOperatorKey({ configured: undefined, dataDir, logger })).toBe(first);
  });
});
