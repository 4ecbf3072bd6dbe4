import { crc32 } from "node:zlib";
import { FakeAwsError } from "./fake-errors.ts";
import type { FakeRequest } from "./fake-request.ts";

/** An S3 payload as stored: `aws-chunked` removed, checksums verified. */
export function readPayload(request: FakeRequest): Buffer {
  const { headers } = request;
  const chunked =
    (headers["content-encoding"] ?? "").includes("aws-chunked") ||
    (headers["x-amz-content-sha256"] ?? "").startsWith("STREAMING-");
  const decodedLength = headers["x-amz-decoded-content-length"];
  if (chunked) {
    return decodeAwsChunked(
      request.body,
      decodedLength === undefined ? undefined : Number(decodedLength),
    );
  }
  const crc = headers["x-amz-checksum-crc32"];
  if (crc) checkCrc32(request.body, crc);
  return request.body;
}

/**
 * Decodes an `aws-chunked` body: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` chunks, a
 * zero-size chunk, then trailer lines such as `x-amz-checksum-crc32:<base64>`. Checks the
 * decoded length and a CRC32 trailer, as S3 does.
 */
function decodeAwsChunked(body: Buffer, decodedLength: number | undefined): Buffer {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", offset);
    if (lineEnd < 0) throw malformed("a chunk header has no line end");
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString().split(";")[0] ?? "", 16);
    if (Number.isNaN(size)) throw malformed("a chunk size is not hexadecimal");
    offset = lineEnd + 2;
    if (size === 0) break;
    chunks.push(body.subarray(offset, offset + size));
    offset += size + 2;
  }
  const decoded = Buffer.concat(chunks);
  if (decodedLength !== undefined && decoded.length !== decodedLength) {
    throw malformed(
      `decoded ${decoded.length} bytes, x-amz-decoded-content-length says ${decodedLength}`,
    );
  }
  const trailers = body.subarray(offset).toString().split("\r\n");
  for (const line of trailers) {
    const [name, value] = line.split(":");
    if (name?.trim() === "x-amz-checksum-crc32") checkCrc32(decoded, value?.trim() ?? "");
  }
  return decoded;
}

/** Compares a body with a base64 big-endian CRC32, as `x-amz-checksum-crc32` carries it. */
function checkCrc32(body: Buffer, expected: string): void {
  const actual = Buffer.alloc(4);
  actual.writeUInt32BE(crc32(body));
  if (actual.toString("base64") !== expected) {
    throw new FakeAwsError(
      "BadDigest",
      "The CRC32 you specified did not match the calculated checksum.",
      400,
    );
  }
}

function malformed(reason: string): FakeAwsError {
  return new FakeAwsError("IncompleteBody", `Malformed aws-chunked body: ${reason}`, 400);
}
