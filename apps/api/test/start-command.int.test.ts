import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from "@sightline/db";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// The built start command, as an operator runs it, failing to start: it must say why in one
// line and leave no embedded Postgres behind.

const run = promisify(execFile);
const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const databaseUrl = inject("databaseUrl");
const OPERATOR_KEY = randomBytes(32).toString("base64url");

/** A data directory the embedded Postgres may use (as root it runs as the postgres user). */
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-start-"));
  await chmod(dir, 0o755);
  return dir;
}

function start(env: Record<string, string>) {
  return run(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? "", SIGHTLINE_ADMIN_KEY: OPERATOR_KEY, ...env },
    timeout: 60_000,
  });
}

let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => busy.close(resolve)));

describe("the start command, when it cannot start", () => {
  it("names PORT when the port is taken", async () => {
    await expect(
      start({
        DATABASE_URL: databaseUrl,
        PORT: String(busyPort),
        SIGHTLINE_DATA_DIR: await dataDir(),
      }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: `PORT ${busyPort} on 127.0.0.1 is in use by another process: set PORT to a free port\n`,
    });
  });

  it("refuses an operator key of little entropy, naming the variable and the rule", async () => {
    const run = start({
      DATABASE_URL: databaseUrl,
      PORT: "0",
      SIGHTLINE_DATA_DIR: await dataDir(),
      SIGHTLINE_ADMIN_KEY: "a".repeat(48),
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("SIGHTLINE_ADMIN_KEY: must be random: at least 128 bits"),
    });
    await expect(run).rejects.toMatchObject({
      stderr: expect.not.stringContaining("a".repeat(48)),
    });
  });

  it("stops the embedded Postgres it started", async () => {
    const dir = await dataDir();
    await expect(start({ PORT: String(busyPort), SIGHTLINE_DATA_DIR: dir })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`PORT ${busyPort} on 127.0.0.1 is in use`),
    });
    expect(await runningEmbeddedPostgresUrl(path.join(dir, "postgres"))).toBeUndefined();
  });

  it("refuses a data directory whose embedded Postgres another process runs, and leaves it running", async () => {
    const dir = await dataDir();
    const other = await startEmbeddedPostgres({ dataDir: path.join(dir, "postgres") });
    try {
      await expect(start({ PORT: "0", SIGHTLINE_DATA_DIR: dir })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(
          `The embedded Postgres in ${path.join(dir, "postgres")} is already running: another Sightline process uses this data directory`,
        ),
      });
      expect(await runningEmbeddedPostgresUrl(path.join(dir, "postgres"))).toBe(other.url);
    } finally {
      await other.stop();
    }
  });
});
