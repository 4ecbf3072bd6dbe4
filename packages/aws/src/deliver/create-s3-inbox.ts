import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { CopyObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { AwsCredentials } from "../aws-credentials.ts";
import { type AwsClientOptions, DEFAULT_MAX_ATTEMPTS, sdkClientConfig } from "../client-options.ts";
import { regionOfKeyArn } from "../partitions.ts";
import { inboxError } from "./inbox-error.ts";
import { retryTransient } from "./retry-transient.ts";

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
}

export interface PutObjectOptions {
  readonly contentType: string;
}

export interface PutObjectResult {
  readonly key: string;
  readonly size: number;
  readonly etag?: string;
}

export interface S3Inbox {
  readonly bucket: string;
  /** Streams a file from disk; a retried job overwrites the same key. */
  putFile(key: string, path: string, options: PutObjectOptions): Promise<PutObjectResult>;
  /** Writes a small object from memory, such as the manifest. */
  putBytes(key: string, bytes: Uint8Array, options: PutObjectOptions): Promise<PutObjectResult>;
  /**
   * Copies an object of the inbox within S3 (a `latest` copy of a dated report), encrypted under
   * the inbox key, without sending its bytes again. S3 copies objects of up to 5 GiB this way.
   */
  copyObject(sourceKey: string, key: string): Promise<{ key: string; etag?: string }>;
  destroy(): void;
}

const MIB = 1024 * 1024;

/** A secure inbox: every object is written with `ServerSideEncryption: aws:kms` under the key. */
export function createS3Inbox(config: S3InboxConfig): S3Inbox {
  const region = config.region ?? regionOfKeyArn(config.kmsKeyId);
  if (!region) throw new Error("createS3Inbox needs a region when kmsKeyId is not a key ARN");
  const options = config.clientOptions ?? {};
  const client = new S3Client({
    ...sdkClientConfig("s3", region, config.credentials, options),
    forcePathStyle: options.s3ForcePathStyle ?? false,
  });
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const threshold = config.multipartThresholdBytes ?? 64 * MIB;
  const partSize = Math.max(config.partSizeBytes ?? 16 * MIB, 5 * MIB);
  const encryption = {
    Bucket: config.bucket,
    ServerSideEncryption: "aws:kms" as const,
    SSEKMSKeyId: config.kmsKeyId,
  };
  const place = (key: string) => ({ bucket: config.bucket, key, kmsKeyId: config.kmsKeyId });

  /** Small files go in one request of known length; the SDK sends it `aws-chunked`. */
  async function putWhole(key: string, path: string, size: number, contentType: string) {
    return retryTransient(maxAttempts, async () => {
      const body = createReadStream(path);
      try {
        return await client.send(
          new PutObjectCommand({
            ...encryption,
            Key: key,
            Body: body,
            ContentLength: size,
            ContentType: contentType,
          }),
        );
      } finally {
        body.destroy();
      }
    });
  }

  /** lib-storage buffers parts of `partSize`, four at a time, and aborts the upload on failure. */
  async function putInParts(key: string, path: string, contentType: string) {
    const body = createReadStream(path);
    try {
      const upload = new Upload({
        client,
        params: { ...encryption, Key: key, Body: body, ContentType: contentType },
        partSize,
        queueSize: 4,
        leavePartsOnError: false,
      });
      return await upload.done();
    } finally {
      body.destroy();
    }
  }

  async function putFile(key: string, path: string, { contentType }: PutObjectOptions) {
    const { size } = await stat(path);
    try {
      const answer =
        size < threshold
          ? await putWhole(key, path, size, contentType)
          : await putInParts(key, path, contentType);
      return { key, size, ...(answer.ETag ? { etag: answer.ETag } : {}) };
    } catch (error) {
      throw inboxError(error, place(key));
    }
  }

  async function putBytes(key: string, bytes: Uint8Array, { contentType }: PutObjectOptions) {
    try {
      const answer = await client.send(
        new PutObjectCommand({ ...encryption, Key: key, Body: bytes, ContentType: contentType }),
      );
      return { key, size: bytes.byteLength, ...(answer.ETag ? { etag: answer.ETag } : {}) };
    } catch (error) {
      throw inboxError(error, place(key));
    }
  }

  async function copyObject(sourceKey: string, key: string) {
    const source = `${config.bucket}/${sourceKey.split("/").map(encodeURIComponent).join("/")}`;
    try {
      const answer = await client.send(
        new CopyObjectCommand({ ...encryption, Key: key, CopySource: source }),
      );
      const etag = answer.CopyObjectResult?.ETag;
      return { key, ...(etag ? { etag } : {}) };
    } catch (error) {
      throw inboxError(error, place(key));
    }
  }

  return {
    bucket: config.bucket,
    putFile,
    putBytes,
    copyObject,
    destroy: () => client.destroy(),
  };
}
