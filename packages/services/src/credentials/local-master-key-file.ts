import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "@sightline/logging";
import { KEY_BYTES } from "./aes-gcm.ts";

/**
 * The local master key: `<dataDir>/master-key` (base64, mode 600), generated on first start.
 * Whoever holds it and the database can read stored credentials: back it up apart from them.
 */
export async function loadLocalMasterKeyFile(dataDir: string, logger: Logger): Promise<Buffer> {
  const file = path.resolve(dataDir, "master-key");
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing === undefined) {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    try {
      await writeFile(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, {
        mode: 0o600,
        flag: "wx",
      });
      logger.warn({ file }, "SIGHTLINE_KMS_KEY_ID is unset: generated a local master key");
    } catch (error) {
      // Another process starting at the same moment wrote it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const key = Buffer.from((existing ?? (await readFile(file, "utf8"))).trim(), "base64");
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte key`);
  return key;
}
