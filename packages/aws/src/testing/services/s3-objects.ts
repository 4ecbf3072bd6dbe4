import { createHash } from "node:crypto";
import { readPayload } from "../aws-chunked.ts";
import { FakeAwsError } from "../fake-errors.ts";
import type { FakeBucket } from "../fake-model.ts";
import type { FakeRequest } from "../fake-request.ts";
import { type FakeState, randomId, type StoredObject } from "../fake-state.ts";
import { type FakeResponse, s3XmlResponse } from "../protocols/responses.ts";
import { readXmlElements } from "../protocols/xml.ts";
import { findKey } from "./kms-keys.ts";
import { addPart, createPartDigest, finishPartDigest } from "./part-digest.ts";

const HIDDEN_HEADERS = new Set(["authorization", "x-amz-security-token"]);

export function findBucket(state: FakeState, name: string): FakeBucket {
  const bucket = state.model.buckets?.find((candidate) => candidate.name === name);
  if (!bucket) throw new FakeAwsError("NoSuchBucket", "The specified bucket does not exist", 404);
  return bucket;
}

/** The write's headers, with SSE-KMS checked: S3 refuses a key it cannot find. */
function writeHeaders(
  state: FakeState,
  bucket: FakeBucket,
  request: FakeRequest,
): Record<string, string> {
  const keyId = request.headers["x-amz-server-side-encryption-aws-kms-key-id"];
  if (keyId !== undefined) {
    try {
      findKey(state, bucket.region ?? "us-east-1", keyId);
    } catch {
      throw new FakeAwsError("KMS.NotFoundException", `Invalid keyId ${keyId}`, 400);
    }
  }
  return Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => !HIDDEN_HEADERS.has(name)),
  );
}

const EMPTY = Buffer.alloc(0);
const sha256Of = (body: Buffer) => createHash("sha256").update(body).digest("hex");

function keepsBody(state: FakeState, bucket: string, key: string): boolean {
  const { storeBodies } = state;
  return typeof storeBodies === "function" ? storeBodies({ bucket, key }) : storeBodies;
}

/**
 * An MD5 ETag, as for unencrypted objects; without bodies, one cut from the SHA-256 the fake
 * computes anyway (S3's ETag of an SSE-KMS object is not an MD5 either), sparing a second hash.
 */
function etagOf(body: Buffer | { sha256: string }, suffix = ""): string {
  const hex = Buffer.isBuffer(body)
    ? createHash("md5").update(body).digest("hex")
    : body.sha256.slice(0, 32);
  return `"${hex}${suffix}"`;
}

/** The object as kept: its bytes, or only their size and SHA-256. */
function storeObject(
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

function sseHeaders(headers: Record<string, string>): Record<string, string> {
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

export function putObject(
  state: FakeState,
  request: FakeRequest,
  bucketName: string,
  key: string,
): FakeResponse {
  const headers = writeHeaders(state, findBucket(state, bucketName), request);
  const body = readPayload(request);
  const object = { bucket: bucketName, key, headers, accessKeyId: request.accessKeyId };
  const content = keepsBody(state, bucketName, key)
    ? { body }
    : { size: body.length, sha256: sha256Of(body) };
  const { etag } = storeObject(state, { ...object, multipart: false }, content);
  return { status: 200, headers: { etag, ...sseHeaders(headers) }, body: "" };
}

/** A server-side copy: the source's bytes (or digest) and content type, the request's SSE-KMS. */
export function copyObject(
  state: FakeState,
  request: FakeRequest,
  bucketName: string,
  key: string,
): FakeResponse {
  const headers = writeHeaders(state, findBucket(state, bucketName), request);
  const source = decodeURIComponent(request.headers["x-amz-copy-source"] ?? "").replace(/^\//, "");
  const found = state.objects.get(source);
  if (!found) throw new FakeAwsError("NoSuchKey", "The specified key does not exist.", 404);
  const contentType = found.headers["content-type"];
  const object = {
    bucket: bucketName,
    key,
    headers: { ...headers, ...(contentType ? { "content-type": contentType } : {}) },
    accessKeyId: request.accessKeyId,
    multipart: false,
  };
  const whole = found.body.length === found.size && keepsBody(state, bucketName, key);
  const content = whole ? { body: found.body } : { size: found.size, sha256: found.sha256 };
  const stored = storeObject(state, object, content);
  return s3XmlResponse("CopyObjectResult", {
    ETag: stored.etag,
    LastModified: new Date().toISOString(),
  });
}

export function createMultipartUpload(
  state: FakeState,
  request: FakeRequest,
  bucketName: string,
  key: string,
): string {
  const headers = writeHeaders(state, findBucket(state, bucketName), request);
  const uploadId = randomId("upload-", 24);
  state.uploads.set(uploadId, {
    bucket: bucketName,
    key,
    headers,
    parts: new Map(),
    ...(keepsBody(state, bucketName, key) ? {} : { digest: createPartDigest() }),
  });
  return uploadId;
}

export function uploadPart(state: FakeState, request: FakeRequest): FakeResponse {
  const upload = state.uploads.get(request.url.searchParams.get("uploadId") ?? "");
  if (!upload) throw new FakeAwsError("NoSuchUpload", "The specified upload does not exist.", 404);
  const body = readPayload(request);
  const number = Number(request.url.searchParams.get("partNumber"));
  let etag: string;
  if (upload.digest) {
    const sha256 = sha256Of(body);
    addPart(upload.digest, number, body, sha256);
    etag = etagOf({ sha256 });
  } else {
    upload.parts.set(number, body);
    etag = etagOf(body);
  }
  return { status: 200, headers: { etag, ...sseHeaders(upload.headers) }, body: "" };
}

/** Assembles the parts the request lists, in its order, into the object. */
export function completeMultipartUpload(state: FakeState, request: FakeRequest): string {
  const uploadId = request.url.searchParams.get("uploadId") ?? "";
  const upload = state.uploads.get(uploadId);
  if (!upload) throw new FakeAwsError("NoSuchUpload", "The specified upload does not exist.", 404);
  const numbers = readXmlElements(request.body.toString("utf8"), "PartNumber").map(Number);
  const content = upload.digest
    ? finishPartDigest(upload.digest, numbers)
    : {
        body: Buffer.concat(
          numbers.map((n) => {
            const part = upload.parts.get(n);
            if (!part) throw new FakeAwsError("InvalidPart", `Part ${n} was not uploaded.`, 400);
            return part;
          }),
        ),
      };
  state.uploads.delete(uploadId);
  const object = {
    bucket: upload.bucket,
    key: upload.key,
    headers: upload.headers,
    accessKeyId: request.accessKeyId,
    multipart: true,
  };
  return storeObject(state, object, content, `-${numbers.length}`).etag;
}

export function getObject(
  state: FakeState,
  bucketName: string,
  key: string,
  head: boolean,
): FakeResponse {
  findBucket(state, bucketName);
  const object = state.objects.get(`${bucketName}/${key}`);
  if (!object) throw new FakeAwsError("NoSuchKey", "The specified key does not exist.", 404);
  if (!head && object.body.length !== object.size)
    throw new FakeAwsError(
      "NotImplemented",
      "The fake kept only the size and SHA-256 of this object (storeBodies)",
      501,
    );
  const headers = {
    "content-type": object.headers["content-type"] ?? "application/octet-stream",
    "content-length": String(object.size),
    etag: object.etag,
    ...sseHeaders(object.headers),
  };
  return { status: 200, headers, body: head ? "" : object.body };
}
