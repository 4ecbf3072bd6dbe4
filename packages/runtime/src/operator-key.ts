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
 * An estimate of a secret's entropy in bits: its length times the Shannon entropy of its
 * characters. Repetition and short alphabets score low (`aaaa…` scores 0); a random base64
 * string of 32 bytes scores about 220. It cannot see dictionary words or keyboard runs.
 */
export function estimateEntropyBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const ch of secret) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const length = [...secret].length;
  let perCharacter = 0;
  for (const n of counts.values()) perCharacter -= (n / length) * Math.log2(n / length);
  return length * perCharacter;
}

/** The least estimated entropy an operator key from the environment must have. */
export const OPERATOR_KEY_MIN_BITS = 128;

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
