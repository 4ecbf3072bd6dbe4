import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runningEmbeddedPostgresUrl } from "../src/embedded.ts";

// postmaster.pid as Postgres writes it: process ID, data directory, start time, port, ...
const postmasterPid = (pid: number, port: number, dir: string) =>
  [pid, dir, "1763900000", port, "", "127.0.0.1", "  1234  5678", "ready", ""].join("\n");

async function dataDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-pgdata-"));
  for (const [name, content] of Object.entries(files))
    await writeFile(path.join(dir, name), content);
  return dir;
}

describe("runningEmbeddedPostgresUrl", () => {
  it("reads the port of a live server and the password kept beside it", async () => {
    const dir = await dataDir({ "sightline-password": "p@ss/word\n" });
    await writeFile(path.join(dir, "postmaster.pid"), postmasterPid(process.pid, 54_321, dir));
    expect(await runningEmbeddedPostgresUrl(dir)).toBe(
      "postgres://postgres:p%40ss%2Fword@127.0.0.1:54321/postgres",
    );
  });

  it("finds none without postmaster.pid, or when its process is gone", async () => {
    expect(await runningEmbeddedPostgresUrl(await dataDir({}))).toBeUndefined();
    const dir = await dataDir({ "sightline-password": "secret\n" });
    // Process IDs stay below 2^22 on Linux: this one cannot exist.
    await writeFile(path.join(dir, "postmaster.pid"), postmasterPid(2 ** 22 + 7, 5432, dir));
    expect(await runningEmbeddedPostgresUrl(dir)).toBeUndefined();
    await writeFile(path.join(dir, "postmaster.pid"), "garbage");
    expect(await runningEmbeddedPostgresUrl(dir)).toBeUndefined();
  });
});
