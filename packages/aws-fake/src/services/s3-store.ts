import { createHash } from "node:crypto";
import { readPayload } from "../aws-chunked.ts";
import { FakeAwsError } from "../fake-errors.ts";
import type { FakeBucket, FakeKey } from "../fake-model.ts";
import { type FakeRequest, visibleHeaders } from "../fake-request.ts";
import type { FakeCall, FakeState, StoredObject } from "../fake-state.ts";
import { findKey } from "./kms-keys.ts";
import { type ChecksumName, type Checksums, checksumsOf, corruptBody } from "./s3-checksums.ts";

export function findBucket(state: FakeState, name: string): FakeBucket {
  const bucket = state.model.buckets?.find((candidate) => candidate.name === name);
  if (!bucket) throw new FakeAwsError("NoSuchBucket", "The specified bucket does not exist", 404);
  return bucket;
}

/**
 * S3 answers `AccessDenied` when a bucket is not owned by the account a request expects
 * (`x-amz-expected-bucket-owner`, and `x-amz-source-expected-bucket-owner` for a copy's source).
 */
export function checkExpectedOwners(state: FakeState, request: FakeRequest, bucket: string): void {
  const source = request.headers["x-amz-copy-source"];
  const checks: [string | undefined, string][] = [
    [request.headers["x-amz-expected-bucket-owner"], bucket],
    [
      request.headers["x-amz-source-expected-bucket-owner"],
      decodeURIComponent(source ?? "")
        .replace(/^\//, "")
        .split("/")[0] ?? "",
    ],
  ];
  for (const [expected, name] of checks) {
    const found = state.model.buckets?.find((candidate) => candidate.name === name);
    if (expected === undefined || !found) continue;
    if ((found.ownerAccountId ?? state.model.accountId) !== expected)
      throw new FakeAwsError("AccessDenied", "Access Denied", 403);
  }
}

/** The write's headers, with SSE-KMS checked: S3 refuses a key it cannot find or use. */
export function writeHeaders(
  state: FakeState,
  bucket: FakeBucket,
  request: FakeRequest,
): Readonly<Record<string, string>> {
  const keyId = request.headers["x-amz-server-side-encryption-aws-kms-key-id"];
  if (keyId !== undefined) {
    let key: FakeKey;
    try {
      key = findKey(state, bucket.region ?? "us-east-1", keyId);
    } catch {
      throw new FakeAwsError("KMS.NotFoundException", `Invalid keyId ${keyId}`, 400);
    }
    // As S3 does, a key it may not use (disabled, pending deletion) fails the write.
    const keyState = key.state ?? "Enabled";
    if (keyState === "Disabled")
      throw new FakeAwsError("KMS.DisabledException", `${keyId} is disabled.`, 400);
    if (keyState !== "Enabled")
      throw new FakeAwsError("KMS.KMSInvalidStateException", `${keyId} is ${keyState}.`, 400);
  }
  return visibleHeaders(request.headers);
}

/**
 * A write's body as the store keeps it and the checksums it reports: those sent, verified; or,
 * under a `corrupt-body` fault, altered bytes, unverified, and their own checksums.
 */
export function receiveBody(call: FakeCall): { body: Buffer; reported: Checksums } {
  const corrupt = call.alteration === "corrupt-body";
  const payload = readPayload(call.request, { verify: !corrupt });
  const body = corrupt ? corruptBody(payload.body) : payload.body;
  if (call.alteration === "no-checksum") return { body, reported: {} };
  const names = Object.keys(payload.checksums) as ChecksumName[];
  return { body, reported: corrupt ? checksumsOf(body, names) : payload.checksums };
}

const EMPTY = Buffer.alloc(0);
export const sha256Of = (body: Buffer) => createHash("sha256").update(body).digest("hex");

export function keepsBody(state: FakeState, bucket: string, key: string): boolean {
  const { storeBodies } = state;
  return typeof storeBodies === "function" ? storeBodies({ bucket, key }) : storeBodies;
}

/**
 * An MD5 ETag, as for unencrypted objects; without bodies, one cut from the SHA-256 the fake
 * computes anyway (S3's ETag of an SSE-KMS object is not an MD5 either), sparing a second hash.
 */
export function etagOf(body: Buffer | { sha256: string }, suffix = ""): string {
  const hex = Buffer.isBuffer(body)
    ? createHash("md5").update(body).digest("hex")
    : body.sha256.slice(0, 32);
  return `"${hex}${suffix}"`;
}

/** The object as kept: its bytes, or only their size and SHA-256. */
export function storeObject(
  state: FakeState,
  object: Omit<StoredObject, "body" | "size" | "sha256" | "etag">,
  content: { body: Buffer } | { size: number; sha256: string },
  etagSuffix = "",
): StoredObject {
  const stored: StoredObject =
    "body" in content
      ? {
          ...object,
          body: content.body,
          size: content.body.length,
          sha256: sha256Of(content.body),
          etag: etagOf(content.body, etagSuffix),
        }
      : { ...object, body: EMPTY, ...content, etag: etagOf(content, etagSuffix) };
  state.objects.set(`${object.bucket}/${object.key}`, stored);
  return stored;
}

export function sseHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of [
    "x-amz-server-side-encryption",
    "x-amz-server-side-encryption-aws-kms-key-id",
  ]) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
