import { stat } from "node:fs/promises";
import path from "node:path";

/**
 * The first directory on the way to `target` that users other than its owner cannot enter
 * (no `o+x`), or undefined. As root, the embedded Postgres runs as the `postgres` user, which
 * must reach both its binaries and its data directory.
 */
export async function firstClosedDirectory(target: string): Promise<string | undefined> {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (const part of parts) {
    current = path.join(current, part);
    const info = await stat(current).catch(() => undefined);
    if (!info) return undefined; // created later with open permissions
    if (info.isDirectory() && (info.mode & 0o001) === 0) return current;
  }
  return undefined;
}
