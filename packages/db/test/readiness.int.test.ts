import { describe, expect, inject, it } from "vitest";
import { createDb } from "../src/index.ts";
import { createTestDatabase } from "../src/testing.ts";

// Readiness means a schema this build can use, not merely a server that answers.
describe("ping (the readiness check)", () => {
  it("resolves on a migrated database and rejects on an empty one", async () => {
    const migrated = createDb(inject("databaseUrl"));
    await expect(migrated.ping()).resolves.toBeUndefined();
    await migrated.close();

    const empty = await createTestDatabase(inject("databaseUrl"), { migrated: false });
    const handle = createDb(empty.url);
    try {
      await expect(handle.ping()).rejects.toThrow();
    } finally {
      await handle.close();
      await empty.dispose();
    }
  });
});
