import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { AwsCredentials } from "../aws-credentials.ts";
import { classifyAwsError } from "../classify-aws-error.ts";
import { type AwsClientOptions, DEFAULT_MAX_ATTEMPTS, sdkClientConfig } from "../client-options.ts";
import { regionOfKeyArn } from "../partitions.ts";
import { type InboxAccess, inboxError } from "./inbox-error.ts";
import { retryTransient } from "./retry-transient.ts";
import { checkStoredChecksum, checksumOfHex, sha256Of } from "./stored-checksum.ts";
import { type PartsUploadHooks, uploadInParts } from "./upload-in-parts.ts";

export interface S3InboxConfig {
  readonly bucket: string;
  /** The KMS key every object is encrypted with (SSE-KMS): a key ARN, or an ID with `region`. */
  readonly kmsKeyId: string;
  /** The bucket's region. Default: the key ARN's (S3 requires the key in the bucket's region). */
  readonly region?: string;
  /** Default: the SDK's standard chain (Sightline's own principal). */
  readonly credentials?: AwsCredentials;
  readonly clientOptions?: AwsClientOptions;
  /** Files of at least this size go as multipart uploads. Default 64 MiB. */
  readonly multipartThresholdBytes?: number;
  /** Part size of multipart uploads (at least 5 MiB); four are in memory at once. Default 16 MiB. */
  readonly partSizeBytes?: number;
  /** The bucket's AWS account (12 digits): sent as ExpectedBucketOwner on every request. */
  readonly expectedBucketOwner?: string;
  /** Told of each multipart upload started and ended (to abort one a killed process left). */
  readonly multipartUploads?: MultipartUploadHooks;
}

/** A multipart upload as started: what an abort of it needs. */
export interface StartedUpload {
  readonly bucket: string;
  readonly key: string;
  readonly uploadId: string;
  readonly region: string;
  readonly expectedBucketOwner?: string;
}

/**
 * Told of each multipart upload, so that one left open by a process killed mid-upload can be
 * aborted later (the inbox policy grants no `s3:ListBucketMultipartUploads` to find it).
 */
export interface MultipartUploadHooks {
  /** Awaited after CreateMultipartUpload, before any part: a failure aborts the upload. */
  started(upload: StartedUpload): Promise<void>;
  /** After Complete or a successful Abort; a failure is ignored (an abort later finds none). */
  ended(uploadId: string): Promise<void>;
}

export interface PutObjectOptions {
  readonly contentType: string;
}

export interface PutFileOptions extends PutObjectOptions {
  /** Lower-case hex SHA-256 of the file (the manifest's digest). */
  readonly sha256: string;
}

export interface PutObjectResult {
  readonly key: string;
  readonly size: number;
  readonly etag?: string;
}

/**
 * A secure inbox. Every write sends the SHA-256 checksum of its bytes, which S3 verifies on
 * receipt, and fails `INBOX_INTEGRITY` unless the checksum S3 reports for what it stored is it.
 */
export interface S3Inbox {
  readonly bucket: string;
  /** Streams a file from disk; a retried job overwrites the same key. */
  putFile(key: string, path: string, options: PutFileOptions): Promise<PutObjectResult>;
  /** Writes a small object from memory, such as the manifest. */
  putBytes(key: string, bytes: Uint8Array, options: PutObjectOptions): Promise<PutObjectResult>;
  /**
   * Copies an object of the inbox within S3 (a `latest` copy of a dated report), encrypted under
   * the inbox key, without sending its bytes again (up to 5 GiB). `sha256` is the source's hex
   * digest, checked against the copy's full-object checksum.
   */
  copyObject(
    sourceKey: string,
    key: string,
    options: { readonly sha256: string },
  ): Promise<{ key: string; etag?: string }>;
  /** Idempotent: S3 answers a key that does not exist as it does one it deleted. */
  deleteObject(key: string): Promise<void>;
  /**
   * Aborts a multipart upload left open (its parts are dropped); one S3 no longer knows
   * (`NoSuchUpload`: aborted, completed or expired) counts as aborted.
   */
  abortUpload(key: string, uploadId: string): Promise<void>;
  /** A small object's text (at most maxBytes, default 4096), or undefined when the key does not exist. */
  readText(key: string, maxBytes?: number): Promise<string | undefined>;
  destroy(): void;
}

const MIB = 1024 * 1024;
const ACCOUNT_ID = /^\d{12}$/;

/** A secure inbox: every object is written with `ServerSideEncryption: aws:kms` under the key. */
export function createS3Inbox(config: S3InboxConfig): S3Inbox {
  const region = config.region ?? regionOfKeyArn(config.kmsKeyId);
  if (!region) throw new Error("createS3Inbox needs a region when kmsKeyId is not a key ARN");
  const expectedOwner = config.expectedBucketOwner;
  if (expectedOwner !== undefined && !ACCOUNT_ID.test(expectedOwner)) {
    throw new Error(
      `expectedBucketOwner must be a 12-digit AWS account ID, not "${expectedOwner}"`,
    );
  }
  const options = config.clientOptions ?? {};
  const client = new S3Client({
    ...sdkClientConfig("s3", region, config.credentials, options),
    forcePathStyle: options.s3ForcePathStyle ?? false,
  });
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const threshold = config.multipartThresholdBytes ?? 64 * MIB;
  const partSize = Math.max(config.partSizeBytes ?? 16 * MIB, 5 * MIB);
  const { bucket, kmsKeyId } = config;
  const owner = expectedOwner ? { ExpectedBucketOwner: expectedOwner } : {};
  const encryption = { ServerSideEncryption: "aws:kms" as const, SSEKMSKeyId: kmsKeyId };
  const where = (key: string) => `s3://${bucket}/${key}`;
  const place = {
    bucket,
    kmsKeyId,
    ...(expectedOwner ? { expectedBucketOwner: expectedOwner } : {}),
  };
  const recorder = config.multipartUploads;
  const hooks: PartsUploadHooks | undefined = recorder && {
    started: (upload) =>
      recorder.started({
        ...upload,
        region,
        ...(expectedOwner ? { expectedBucketOwner: expectedOwner } : {}),
      }),
    ended: (uploadId) => recorder.ended(uploadId),
  };
  const failure = (error: unknown, key: string, access?: InboxAccess) =>
    inboxError(error, { ...place, key }, access);

  /**
   * One streamed request of known length. Sending `ChecksumSHA256` ourselves makes the SDK skip
   * its trailing checksum, so the body goes as it is, not `aws-chunked`.
   */
  async function putWhole(key: string, path: string, size: number, options: PutFileOptions) {
    const checksum = checksumOfHex(options.sha256);
    const answer = await retryTransient(maxAttempts, async () => {
      const body = createReadStream(path);
      try {
        return await client.send(
          new PutObjectCommand({
            ...encryption,
            ...owner,
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentLength: size,
            ContentType: options.contentType,
            ChecksumSHA256: checksum,
          }),
        );
      } finally {
        body.destroy();
      }
    });
    checkStoredChecksum(where(key), checksum, answer.ChecksumSHA256);
    return answer.ETag;
  }

  async function putFile(key: string, path: string, options: PutFileOptions) {
    const { size } = await stat(path);
    try {
      const etag =
        size < threshold || size === 0
          ? await putWhole(key, path, size, options)
          : await uploadInParts({
              client,
              bucket,
              key,
              path,
              size,
              sha256: options.sha256,
              partSize,
              create: { ...encryption, ContentType: options.contentType },
              owner,
              ...(hooks ? { hooks } : {}),
            });
      return { key, size, ...(etag ? { etag } : {}) };
    } catch (error) {
      throw failure(error, key);
    }
  }

  async function putBytes(key: string, bytes: Uint8Array, { contentType }: PutObjectOptions) {
    const checksum = sha256Of(bytes).toString("base64");
    try {
      const answer = await client.send(
        new PutObjectCommand({
          ...encryption,
          ...owner,
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ChecksumSHA256: checksum,
        }),
      );
      checkStoredChecksum(where(key), checksum, answer.ChecksumSHA256);
      return { key, size: bytes.byteLength, ...(answer.ETag ? { etag: answer.ETag } : {}) };
    } catch (error) {
      throw failure(error, key);
    }
  }

  /** `ChecksumAlgorithm: SHA256` makes S3 compute the copy's full-object checksum. */
  async function copyObject(sourceKey: string, key: string, { sha256 }: { sha256: string }) {
    const checksum = checksumOfHex(sha256);
    const source = `${bucket}/${sourceKey.split("/").map(encodeURIComponent).join("/")}`;
    try {
      const answer = await client.send(
        new CopyObjectCommand({
          ...encryption,
          ...owner,
          ...(expectedOwner ? { ExpectedSourceBucketOwner: expectedOwner } : {}),
          Bucket: bucket,
          Key: key,
          CopySource: source,
          ChecksumAlgorithm: "SHA256",
        }),
      );
      checkStoredChecksum(where(key), checksum, answer.CopyObjectResult?.ChecksumSHA256);
      const etag = answer.CopyObjectResult?.ETag;
      return { key, ...(etag ? { etag } : {}) };
    } catch (error) {
      throw failure(error, key, "copy");
    }
  }

  async function deleteObject(key: string) {
    try {
      await client.send(new DeleteObjectCommand({ ...owner, Bucket: bucket, Key: key }));
    } catch (error) {
      throw failure(error, key, "delete");
    }
  }

  async function abortUpload(key: string, uploadId: string) {
    try {
      await client.send(
        new AbortMultipartUploadCommand({ ...owner, Bucket: bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (classifyAwsError(error).code === "NoSuchUpload") return;
      throw failure(error, key, "abort");
    }
  }

  /** A ranged GET, so that a large object is not downloaded to read its beginning. */
  async function readText(key: string, maxBytes = 4096) {
    if (!Number.isInteger(maxBytes) || maxBytes < 1) {
      throw new Error(`readText needs a positive whole maxBytes, not ${maxBytes}`);
    }
    try {
      const answer = await client.send(
        new GetObjectCommand({
          ...owner,
          Bucket: bucket,
          Key: key,
          Range: `bytes=0-${maxBytes - 1}`,
        }),
      );
      return await readAtMost(answer.Body as AsyncIterable<Uint8Array> | undefined, maxBytes);
    } catch (error) {
      const { code } = classifyAwsError(error);
      if (code === "NoSuchKey") return undefined;
      // S3 answers 416 to any range of an empty object.
      if (code === "InvalidRange") return "";
      throw failure(error, key, "read");
    }
  }

  return {
    bucket,
    putFile,
    putBytes,
    copyObject,
    deleteObject,
    abortUpload,
    readText,
    destroy: () => client.destroy(),
  };
}

/** The text of a body's first `maxBytes` bytes, even from a store that ignores `Range`. */
async function readAtMost(
  body: AsyncIterable<Uint8Array> | undefined,
  maxBytes: number,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body ?? []) {
    chunks.push(chunk.subarray(0, maxBytes - length));
    length += chunks.at(-1)?.length ?? 0;
    if (length >= maxBytes) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}
