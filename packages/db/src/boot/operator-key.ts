import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "@sightline/logging";

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The operator key: the configured one, or one generated on first start and kept in
 * `<dataDir>/admin-key` (mode 600). Only the file's path is ever logged.
 */
export async function loadOperatorKey(options: {
  configured: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<string> {
  if (options.configured) return options.configured;
  const file = path.resolve(options.dataDir, "admin-key");
  const existing = await readIfExists(file);
  if (existing !== undefined) return existing;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
  const key = `sl_admin_${randomBytes(32).toString("base64url")}`;
  try {
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process starting at the same moment wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      return (await readIfExists(file)) ?? key;
    throw error;
  }
  options.logger.warn({ file }, "SIGHTLINE_ADMIN_KEY is unset: generated an operator key");
  return key;
}
