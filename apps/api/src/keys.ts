import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** API keys carry 256 random bits, so a fast hash is enough; only the hash is stored. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateApiKey(): { id: string; key: string } {
  return {
    id: `key_${randomBytes(12).toString("base64url")}`,
    key: `sl_${randomBytes(32).toString("base64url")}`,
  };
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
