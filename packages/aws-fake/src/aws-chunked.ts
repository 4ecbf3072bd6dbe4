import { FakeAwsError } from "./fake-errors.ts";
import type { FakeRequest } from "./fake-request.ts";
import { CHECKSUM_NAMES, type Checksums, verifyChecksums } from "./services/s3-checksums.ts";

/** An S3 payload as received: `aws-chunked` removed, and the checksums that came with it. */
export interface Payload {
  readonly body: Buffer;
  /** `x-amz-checksum-*` values sent as headers or as `aws-chunked` trailers. */
  readonly checksums: Checksums;
}

/**
 * Decodes an S3 payload and, unless `verify` is false (an emulator that ignores checksums),
 * checks its decoded length and every checksum sent with it, as S3 does.
 */
export function readPayload(request: FakeRequest, { verify = true } = {}): Payload {
  const { headers } = request;
  const chunked =
    (headers["content-encoding"] ?? "").includes("aws-chunked") ||
    (headers["x-amz-content-sha256"] ?? "").startsWith("STREAMING-");
  const checksums = checksumsIn(headers);
  let body = request.body;
  if (chunked) {
    const decoded = decodeAwsChunked(request.body);
    body = decoded.body;
    Object.assign(checksums, decoded.trailers);
    const length = headers["x-amz-decoded-content-length"];
    if (verify && length !== undefined && body.length !== Number(length)) {
      throw malformed(`decoded ${body.length} bytes, x-amz-decoded-content-length says ${length}`);
    }
  }
  if (verify) verifyChecksums(body, checksums);
  return { body, checksums };
}

/** The known `x-amz-checksum-<name>` entries of headers or trailer lines. */
function checksumsIn(entries: Readonly<Record<string, string>>): Checksums {
  const found: Checksums = {};
  for (const name of CHECKSUM_NAMES) {
    const value = entries[`x-amz-checksum-${name}`];
    if (value !== undefined) found[name] = value;
  }
  return found;
}

/**
 * Decodes an `aws-chunked` body: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` chunks, a
 * zero-size chunk, then trailer lines such as `x-amz-checksum-crc32:<base64>`.
 */
function decodeAwsChunked(body: Buffer): { body: Buffer; trailers: Checksums } {
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
  const lines: Record<string, string> = {};
  for (const line of body.subarray(offset).toString().split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) lines[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { body: Buffer.concat(chunks), trailers: checksumsIn(lines) };
}

function malformed(reason: string): FakeAwsError {
  return new FakeAwsError("IncompleteBody", `Malformed aws-chunked body: ${reason}`, 400);
}
