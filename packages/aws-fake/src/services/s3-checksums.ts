import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { FakeAwsError } from "../fake-errors.ts";

/** The checksums the fake computes, by the suffix of their `x-amz-checksum-<name>` header. */
export type ChecksumName = "crc32" | "sha1" | "sha256";
export const CHECKSUM_NAMES: readonly ChecksumName[] = ["crc32", "sha1", "sha256"];

/** Sent or reported checksums, base64 as S3's headers carry them. */
export type Checksums = Partial<Record<ChecksumName, string>>;

/** A checksum of `body` as S3 writes it: base64 of the raw digest (CRC32 big-endian). */
export function checksumOf(name: ChecksumName, body: Buffer): string {
  if (name !== "crc32") return createHash(name).update(body).digest("base64");
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(body));
  return bytes.toString("base64");
}

/** The checksums of `body` under the names given: what S3 answers after a write. */
export function checksumsOf(body: Buffer, names: Iterable<ChecksumName>): Checksums {
  const checksums: Checksums = {};
  for (const name of names) checksums[name] = checksumOf(name, body);
  return checksums;
}

/** Refuses a body whose checksum differs from a sent one, with S3's `BadDigest`. */
export function verifyChecksums(body: Buffer, sent: Checksums): void {
  for (const name of CHECKSUM_NAMES) {
    const expected = sent[name];
    if (expected !== undefined && checksumOf(name, body) !== expected) {
      throw new FakeAwsError(
        "BadDigest",
        `The ${name.toUpperCase()} you specified did not match the calculated checksum.`,
        400,
      );
    }
  }
}

/** Response headers `x-amz-checksum-<name>` for the checksums. */
export function checksumHeaders(checksums: Checksums): Record<string, string> {
  return Object.fromEntries(
    Object.entries(checksums).map(([name, value]) => [`x-amz-checksum-${name}`, value]),
  );
}

/** S3's checksum of a multipart object: base64 of the SHA-256 of the parts' raw digests, `-N`. */
export function compositeSha256(partSha256Hex: readonly string[]): string {
  const hash = createHash("sha256");
  for (const hex of partSha256Hex) hash.update(Buffer.from(hex, "hex"));
  return `${hash.digest("base64")}-${partSha256Hex.length}`;
}

/** What an emulator storing an `aws-chunked` body without decoding it keeps. */
export function corruptBody(body: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`${body.length.toString(16)}\r\n`),
    body,
    Buffer.from("\r\n0\r\n\r\n"),
  ]);
}
