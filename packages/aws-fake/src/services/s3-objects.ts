import { FakeAwsError } from "../fake-errors.ts";
import type { FakeRequest } from "../fake-request.ts";
import type { FakeCall, FakeState } from "../fake-state.ts";
import { type FakeResponse, s3XmlResponse } from "../protocols/responses.ts";
import { checksumHeaders, corruptBody } from "./s3-checksums.ts";
import {
  findBucket,
  keepsBody,
  receiveBody,
  sha256Of,
  sseHeaders,
  storeObject,
  writeHeaders,
} from "./s3-store.ts";

export function putObject(call: FakeCall, bucketName: string, key: string): FakeResponse {
  const { state, request } = call;
  const headers = writeHeaders(state, findBucket(state, bucketName), request);
  const { body, reported } = receiveBody(call);
  const object = {
    bucket: bucketName,
    key,
    headers,
    accessKeyId: request.accessKeyId,
    multipart: false,
    ...(reported.sha256 ? { checksumSha256: reported.sha256 } : {}),
  };
  const content = keepsBody(state, bucketName, key)
    ? { body }
    : { size: body.length, sha256: sha256Of(body) };
  const { etag } = storeObject(state, object, content);
  const answer = { etag, ...sseHeaders(headers), ...checksumHeaders(reported) };
  return { status: 200, headers: answer, body: "" };
}

/**
 * A server-side copy: the source's bytes (or digest) and content type, the request's SSE-KMS.
 * With `x-amz-checksum-algorithm: SHA256` S3 computes the copy's full-object checksum; without,
 * the copy keeps the source's.
 */
export function copyObject(call: FakeCall, bucketName: string, key: string): FakeResponse {
  const { state, request, alteration } = call;
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
  let content: { body: Buffer } | { size: number; sha256: string } = whole
    ? { body: found.body }
    : { size: found.size, sha256: found.sha256 };
  if (alteration === "corrupt-body") {
    // Without the source's bytes, a digest that cannot be theirs stands for altered ones.
    content = whole
      ? { body: corruptBody(found.body) }
      : { size: found.size, sha256: sha256Of(Buffer.from(`corrupt:${found.sha256}`)) };
  }
  const computed = request.headers["x-amz-checksum-algorithm"]?.toUpperCase() === "SHA256";
  const sha256 = "body" in content ? sha256Of(content.body) : content.sha256;
  const checksum = computed ? Buffer.from(sha256, "hex").toString("base64") : found.checksumSha256;
  const reported = alteration === "no-checksum" ? undefined : checksum;
  const stored = storeObject(
    state,
    {
      ...object,
      ...(reported ? { checksumSha256: reported } : {}),
    },
    content,
  );
  return s3XmlResponse("CopyObjectResult", {
    ETag: stored.etag,
    LastModified: new Date().toISOString(),
    ...(reported ? { ChecksumSHA256: reported } : {}),
  });
}

/** Idempotent, as S3's: a key that does not exist answers 204 too. */
export function deleteObject(state: FakeState, bucketName: string, key: string): FakeResponse {
  findBucket(state, bucketName);
  state.objects.delete(`${bucketName}/${key}`);
  return { status: 204, headers: {}, body: "" };
}

/**
 * GET or HEAD of an object, whole or a `Range: bytes=…` of it. The checksum comes only with the
 * whole object and when asked for (`x-amz-checksum-mode: ENABLED`), as S3 sends it.
 */
export function getObject(
  state: FakeState,
  request: FakeRequest,
  bucketName: string,
  key: string,
): FakeResponse {
  const head = request.method === "HEAD";
  findBucket(state, bucketName);
  const object = state.objects.get(`${bucketName}/${key}`);
  if (!object) throw new FakeAwsError("NoSuchKey", "The specified key does not exist.", 404);
  if (!head && object.body.length !== object.size)
    throw new FakeAwsError(
      "NotImplemented",
      "The fake kept only the size and SHA-256 of this object (storeBodies)",
      501,
    );
  const range = request.headers.range;
  const slice = range === undefined ? undefined : byteRange(range, object.size);
  const wantsChecksum = request.headers["x-amz-checksum-mode"]?.toUpperCase() === "ENABLED";
  const headers = {
    "content-type": object.headers["content-type"] ?? "application/octet-stream",
    etag: object.etag,
    ...sseHeaders(object.headers),
    ...(wantsChecksum && !slice && object.checksumSha256
      ? { "x-amz-checksum-sha256": object.checksumSha256 }
      : {}),
  };
  if (!slice) {
    const body = head ? "" : object.body;
    return { status: 200, headers: { ...headers, "content-length": String(object.size) }, body };
  }
  const [start, end] = slice;
  return {
    status: 206,
    headers: {
      ...headers,
      "content-length": String(end - start + 1),
      "content-range": `bytes ${start}-${end}/${object.size}`,
    },
    body: head ? "" : object.body.subarray(start, end + 1),
  };
}

/** First and last byte of `bytes=a-b`, `bytes=a-` or `bytes=-n`; S3's 416 when none exists. */
function byteRange(header: string, size: number): [number, number] | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from = "", to = ""] = match;
  const start = from === "" ? Math.max(0, size - Number(to)) : Number(from);
  const end = from === "" || to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || start > end)
    throw new FakeAwsError("InvalidRange", "The requested range is not satisfiable", 416);
  return [start, end];
}
