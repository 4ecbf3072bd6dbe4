import { createHash } from "node:crypto";
import { AppError } from "@sightline/domain";

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** `x-amz-checksum-sha256` of a hex digest: base64 of the raw 32 bytes. */
export function checksumOfHex(sha256Hex: string): string {
  if (!SHA256_HEX.test(sha256Hex)) {
    throw new Error(`A SHA-256 digest must be 64 hexadecimal digits, not "${sha256Hex}"`);
  }
  return Buffer.from(sha256Hex, "hex").toString("base64");
}

/** The raw SHA-256 digest of bytes. */
export function sha256Of(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/**
 * S3's checksum of a multipart object (checksum type COMPOSITE): the SHA-256 of the parts' raw
 * digests concatenated, base64, then `-<number of parts>`. Not the digest of the whole object.
 */
export function compositeChecksum(partDigests: readonly Uint8Array[]): string {
  const hash = createHash("sha256");
  for (const digest of partDigests) hash.update(digest);
  return `${hash.digest("base64")}-${partDigests.length}`;
}

/**
 * Compares the checksum the store reports for what it kept with the one Sightline sent. `what`
 * names it in messages: `s3://bucket/key`, or `part 2 of s3://bucket/key`.
 */
export function checkStoredChecksum(what: string, sent: string, reported: string | undefined) {
  if (reported === undefined || reported === "") {
    throw new AppError(
      "INBOX_INTEGRITY",
      `The store did not confirm the SHA-256 checksum of what it stored for ${what}: Sightline delivers only to stores that verify checksums (S3 does)`,
      { retryable: false },
    );
  }
  if (reported !== sent) {
    throw new AppError(
      "INBOX_INTEGRITY",
      `The store kept other bytes than Sightline sent for ${what}: it reports the SHA-256 checksum ${reported}, Sightline sent ${sent}; the delivery will be retried`,
    );
  }
}
