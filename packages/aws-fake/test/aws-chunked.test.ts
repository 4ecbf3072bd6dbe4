import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readPayload } from "../src/aws-chunked.ts";
import type { FakeRequest } from "../src/fake-request.ts";

function request(body: string, headers: Record<string, string>): FakeRequest {
  return {
    service: "s3",
    region: "us-east-1",
    accessKeyId: "AKIAEXAMPLE",
    method: "PUT",
    url: new URL("http://127.0.0.1/bucket/key"),
    headers,
    body: Buffer.from(body),
  };
}

function crcOf(text: string): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(Buffer.from(text)));
  return bytes.toString("base64");
}

describe("the fake's S3 payload decoding", () => {
  it("decodes streaming-signed chunks, as a SigV4-signed aws-chunked upload sends them", () => {
    const body = `5;chunk-signature=${"a".repeat(64)}\r\nhello\r\n6;chunk-signature=${"b".repeat(64)}\r\n world\r\n0;chunk-signature=${"c".repeat(64)}\r\n\r\n`;
    const headers = {
      "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
      "x-amz-decoded-content-length": "11",
    };
    expect(readPayload(request(body, headers)).body.toString()).toBe("hello world");
  });

  it("checks a CRC32 trailer and the decoded length", () => {
    const headers = {
      "content-encoding": "aws-chunked",
      "x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
      "x-amz-decoded-content-length": "5",
    };
    const body = (crc: string) => `5\r\nhello\r\n0\r\nx-amz-checksum-crc32:${crc}\r\n\r\n`;
    expect(readPayload(request(body(crcOf("hello")), headers)).body.toString()).toBe("hello");
    expect(() => readPayload(request(body(crcOf("jello")), headers))).toThrow(/CRC32/);
    const short = { ...headers, "x-amz-decoded-content-length": "6" };
    expect(() => readPayload(request(body(crcOf("hello")), short))).toThrow(/decoded 5 bytes/);
  });
});
