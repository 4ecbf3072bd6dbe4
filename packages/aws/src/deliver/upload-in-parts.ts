import { createHash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  type CompleteMultipartUploadCommandOutput,
  CreateMultipartUploadCommand,
  type CreateMultipartUploadCommandInput,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { AppError } from "@sightline/domain";
import { checkStoredChecksum, compositeChecksum, sha256Of } from "./stored-checksum.ts";

/**
 * Our own multipart upload rather than `@aws-sdk/lib-storage`'s `Upload`: that one gives no way
 * to compare each part's stored checksum with the bytes sent, nor to know the parts' digests
 * that S3's composite checksum of the object is made of.
 */
export interface PartsUpload {
  readonly client: S3Client;
  readonly bucket: string;
  readonly key: string;
  readonly path: string;
  readonly size: number;
  /** The file's SHA-256, lower-case hex: the parts read must make it up. */
  readonly sha256: string;
  readonly partSize: number;
  /** SSE-KMS, content type: what CreateMultipartUpload sets besides bucket, key and checksum. */
  readonly create: Omit<CreateMultipartUploadCommandInput, "Bucket" | "Key" | "ChecksumAlgorithm">;
  /** `{ ExpectedBucketOwner }` when configured, sent on every call. */
  readonly owner: { readonly ExpectedBucketOwner?: string };
  readonly hooks?: PartsUploadHooks;
}

/** `MultipartUploadHooks` as the upload knows it (the inbox adds the region). */
export interface PartsUploadHooks {
  started(upload: { bucket: string; key: string; uploadId: string }): Promise<void>;
  ended(uploadId: string): Promise<void>;
}

const MAX_PARTS = 10_000;
const PARTS_IN_FLIGHT = 4;

type UploadTarget = { Bucket: string; Key: string; UploadId: string; ExpectedBucketOwner?: string };
interface SentPart {
  readonly part: CompletedPart;
  readonly digest: Buffer;
}

/**
 * Uploads a file in parts, each with its SHA-256 checksum checked against what S3 stored, and
 * compares the object's composite checksum with the parts'. Aborts the upload on any failure.
 * The SDK retries each part's call itself on throttling and outages (its body is a buffer).
 */
export async function uploadInParts(upload: PartsUpload): Promise<string | undefined> {
  const { client, bucket, key, owner } = upload;
  const where = `s3://${bucket}/${key}`;
  const created = await client.send(
    new CreateMultipartUploadCommand({
      ...upload.create,
      Bucket: bucket,
      Key: key,
      ChecksumAlgorithm: "SHA256",
      ...owner,
    }),
  );
  if (!created.UploadId) {
    throw new AppError("CLOUD_UNAVAILABLE", `S3 started no multipart upload for ${where}`);
  }
  const uploadId = created.UploadId;
  const target: UploadTarget = { Bucket: bucket, Key: key, UploadId: uploadId, ...owner };
  const ended = () => upload.hooks?.ended(uploadId).catch(() => undefined);
  let composite: string;
  let completed: CompleteMultipartUploadCommandOutput;
  try {
    await upload.hooks?.started({ bucket, key, uploadId });
    const parts = await sendParts(upload, target, where);
    composite = compositeChecksum(parts.map(({ digest }) => digest));
    const Parts = parts.map(({ part }) => part);
    completed = await client.send(
      new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts } }),
    );
  } catch (error) {
    // A failed abort stays recorded (`hooks`): the next attempt or maintenance aborts it, and
    // the bucket's AbortIncompleteMultipartUpload rule is the last net.
    const aborted = await client.send(new AbortMultipartUploadCommand(target)).then(
      () => true,
      () => false,
    );
    if (aborted) await ended();
    throw error;
  }
  await ended();
  checkStoredChecksum(where, composite, completed.ChecksumSHA256);
  return completed.ETag;
}

/**
 * Reads the file part by part, in order, hashing it whole on the way, while up to four parts
 * are sent at once: memory holds at most four parts. The parts' buffers are reused once their
 * part is stored: a new 16 MiB buffer per part set off a major garbage collection every few
 * parts (memory outside the heap that V8 counts), each marking the worker's whole heap.
 */
async function sendParts(upload: PartsUpload, target: UploadTarget, where: string) {
  const partSize = Math.max(upload.partSize, Math.ceil(upload.size / MAX_PARTS));
  const count = Math.ceil(upload.size / partSize);
  const whole = createHash("sha256");
  const sent: SentPart[] = [];
  const inFlight = new Set<Promise<void>>();
  const free: Buffer[] = [];
  let failure: { error: unknown } | undefined;
  const handle = await open(upload.path, "r");
  try {
    for (let number = 1; number <= count && !failure; number++) {
      while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
      if (failure) break;
      const position = (number - 1) * partSize;
      const length = Math.min(partSize, upload.size - position);
      const buffer = free.pop() ?? Buffer.allocUnsafe(Math.min(partSize, upload.size));
      const bytes = await readPart(handle, upload.path, buffer.subarray(0, length), position);
      whole.update(bytes);
      const digest = sha256Of(bytes);
      const task: Promise<void> = sendPart(upload.client, target, number, bytes, digest, where)
        .then(
          (part) => {
            sent[number - 1] = { part, digest };
            // Stored (its answer came after the whole body): the buffer may hold the next part.
            free.push(buffer);
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  } finally {
    await Promise.all(inFlight);
    await handle.close();
  }
  if (failure) throw failure.error;
  const read = whole.digest("hex");
  if (read !== upload.sha256.toLowerCase()) {
    throw new AppError(
      "INBOX_INTEGRITY",
      `${upload.path} is not the file whose SHA-256 was given for ${where}: it reads as ${read}, not ${upload.sha256}; nothing was delivered and the delivery will be retried`,
    );
  }
  return sent;
}

async function sendPart(
  client: S3Client,
  target: UploadTarget,
  number: number,
  bytes: Buffer,
  digest: Buffer,
  where: string,
): Promise<CompletedPart> {
  const checksum = digest.toString("base64");
  const command = new UploadPartCommand({
    ...target,
    PartNumber: number,
    Body: bytes,
    ContentLength: bytes.length,
    ChecksumSHA256: checksum,
  });
  // SigV4 signs the payload's SHA-256 (x-amz-content-sha256), which is the part's digest: given
  // it, the signer does not hash the part a third time (after the file's and the part's hashes).
  const payloadHash = digest.toString("hex");
  command.middlewareStack.add(
    (next) => (args) => {
      const { request } = args as { request: { headers?: Record<string, string> } };
      if (request.headers) request.headers["x-amz-content-sha256"] = payloadHash;
      return next(args);
    },
    { step: "build", name: "partPayloadHash" },
  );
  const answer = await client.send(command);
  checkStoredChecksum(`part ${number} of ${where}`, checksum, answer.ChecksumSHA256);
  return { PartNumber: number, ETag: answer.ETag, ChecksumSHA256: checksum };
}

/** Fills `bytes` from the file at `position`. */
async function readPart(
  handle: FileHandle,
  path: string,
  bytes: Buffer,
  position: number,
): Promise<Buffer> {
  const length = bytes.length;
  for (let filled = 0; filled < length; ) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, position + filled);
    if (bytesRead === 0) {
      throw new AppError("INBOX_INTEGRITY", `${path} became shorter while it was uploaded`);
    }
    filled += bytesRead;
  }
  return bytes;
}
