import { FakeAwsError } from "../fake-errors.ts";
import { type FakeCall, type FakeState, randomId } from "../fake-state.ts";
import { type FakeResponse, s3XmlResponse } from "../protocols/responses.ts";
import { readXmlElements } from "../protocols/xml.ts";
import { addPart, createPartDigest, finishPartDigest } from "./part-digest.ts";
import { checksumHeaders, compositeSha256 } from "./s3-checksums.ts";
import {
  etagOf,
  findBucket,
  keepsBody,
  receiveBody,
  sha256Of,
  sseHeaders,
  storeObject,
  writeHeaders,
} from "./s3-store.ts";

export function createMultipartUpload(call: FakeCall, bucketName: string, key: string) {
  const { state, request } = call;
  const headers = writeHeaders(state, findBucket(state, bucketName), request);
  const uploadId = randomId("upload-", 24);
  const algorithm = request.headers["x-amz-checksum-algorithm"]?.toUpperCase();
  state.uploads.set(uploadId, {
    bucket: bucketName,
    key,
    headers,
    ...(algorithm ? { checksumAlgorithm: algorithm } : {}),
    initiated: new Date(),
    parts: new Map(),
    partSha256: new Map(),
    ...(keepsBody(state, bucketName, key) ? {} : { digest: createPartDigest() }),
  });
  return s3XmlResponse("InitiateMultipartUploadResult", {
    Bucket: bucketName,
    Key: key,
    UploadId: uploadId,
    ...(algorithm ? { ChecksumAlgorithm: algorithm } : {}),
  });
}

/** A part; in an upload created with a checksum algorithm, its checksum must be of that one. */
export function uploadPart(call: FakeCall): FakeResponse {
  const { state, request } = call;
  const upload = findUpload(state, request.url.searchParams.get("uploadId"));
  const { body, reported } = receiveBody(call);
  const sent = Object.keys(reported)[0];
  const expected = upload.checksumAlgorithm?.toLowerCase();
  if (expected && sent && sent !== expected) {
    throw new FakeAwsError(
      "InvalidRequest",
      `Checksum Type mismatch occurred, expected checksum Type: ${expected}, actual checksum Type: ${sent}`,
      400,
    );
  }
  const number = Number(request.url.searchParams.get("partNumber"));
  const sha256 = sha256Of(body);
  upload.partSha256.set(number, sha256);
  let etag: string;
  if (upload.digest) {
    addPart(upload.digest, number, body, sha256);
    etag = etagOf({ sha256 });
  } else {
    upload.parts.set(number, body);
    etag = etagOf(body);
  }
  const headers = { etag, ...sseHeaders(upload.headers), ...checksumHeaders(reported) };
  return { status: 200, headers, body: "" };
}

/**
 * Assembles the parts the request lists, in its order, into the object. With SHA256 chosen at
 * creation, S3 checks each listed part's checksum and answers the composite `<base64>-<N>`.
 */
export function completeMultipartUpload(
  call: FakeCall,
  bucketName: string,
  key: string,
): FakeResponse {
  const { state, request } = call;
  const uploadId = request.url.searchParams.get("uploadId") ?? "";
  const upload = findUpload(state, uploadId);
  const xml = request.body.toString("utf8");
  const numbers = readXmlElements(xml, "PartNumber").map(Number);
  const partSha256 = numbers.map((n) => {
    const sha256 = upload.partSha256.get(n);
    if (!sha256) throw new FakeAwsError("InvalidPart", `Part ${n} was not uploaded.`, 400);
    return sha256;
  });
  checkListedChecksums(xml, partSha256);
  const content = upload.digest
    ? finishPartDigest(upload.digest, numbers)
    : { body: Buffer.concat(numbers.map((n) => upload.parts.get(n) ?? Buffer.alloc(0))) };
  state.uploads.delete(uploadId);
  const composite =
    upload.checksumAlgorithm === "SHA256" && call.alteration !== "no-checksum"
      ? compositeSha256(partSha256)
      : undefined;
  const object = {
    bucket: upload.bucket,
    key: upload.key,
    headers: upload.headers,
    accessKeyId: request.accessKeyId,
    multipart: true,
    ...(composite ? { checksumSha256: composite } : {}),
  };
  const { etag } = storeObject(state, object, content, `-${numbers.length}`);
  return s3XmlResponse("CompleteMultipartUploadResult", {
    Location: `http://127.0.0.1/${bucketName}/${key}`,
    Bucket: bucketName,
    Key: key,
    ETag: etag,
    ...(composite ? { ChecksumSHA256: composite, ChecksumType: "COMPOSITE" } : {}),
  });
}

/**
 * The bucket's multipart uploads neither completed nor aborted, keys under `prefix` if given, in
 * key order (one page: `IsTruncated` false).
 */
export function listMultipartUploads(call: FakeCall, bucketName: string): FakeResponse {
  const { state, request } = call;
  findBucket(state, bucketName);
  const prefix = request.url.searchParams.get("prefix") ?? "";
  const uploads = [...state.uploads]
    .filter(([, upload]) => upload.bucket === bucketName && upload.key.startsWith(prefix))
    .sort(([, a], [, b]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(([uploadId, upload]) => ({
      Key: upload.key,
      UploadId: uploadId,
      Initiated: upload.initiated.toISOString(),
    }));
  return s3XmlResponse("ListMultipartUploadsResult", {
    Bucket: bucketName,
    ...(prefix ? { Prefix: prefix } : {}),
    IsTruncated: "false",
    ...(uploads.length > 0 ? { Upload: uploads } : {}),
  });
}

export function abortMultipartUpload(call: FakeCall): FakeResponse {
  const uploadId = call.request.url.searchParams.get("uploadId") ?? "";
  findUpload(call.state, uploadId);
  call.state.uploads.delete(uploadId);
  return { status: 204, headers: {}, body: "" };
}

function findUpload(state: FakeState, uploadId: string | null) {
  const upload = state.uploads.get(uploadId ?? "");
  if (!upload) throw new FakeAwsError("NoSuchUpload", "The specified upload does not exist.", 404);
  return upload;
}

/** A `<ChecksumSHA256>` listed for a part must be the checksum of the part S3 kept. */
function checkListedChecksums(xml: string, partSha256: readonly string[]): void {
  const parts = readXmlElements(xml, "Part");
  parts.forEach((part, index) => {
    const [listed] = readXmlElements(part, "ChecksumSHA256");
    const kept = partSha256[index];
    if (listed !== undefined && kept && Buffer.from(kept, "hex").toString("base64") !== listed) {
      throw new FakeAwsError(
        "InvalidPart",
        "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
        400,
      );
    }
  });
}
