import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodePrincipal, encodePrincipal, encodeResource } from "../src/results/result-records.ts";

const head = {
  arn: "arn:aws:iam::111122223333:role/reader",
  name: "reader",
  type: "IAMRole",
  iamAdmin: "no" as const,
  iamAdminGrantedBy: [],
  credentials: {},
};

describe("the store's deflated records", () => {
  it("hold memory of their own size, not zlib's 16 KiB output buffer, and read back", () => {
    // As record-text writes it: each entry names its grant by its index in `grants`.
    const json = JSON.stringify({
      iamAdminGrantedBy: [],
      grants: [["reader-policy"]],
      access: [["S3", "read-data", "arn:aws:s3:::data/*", 0, 0]],
    });
    const access = [["S3", "read-data", "arn:aws:s3:::data/*", 0, ["reader-policy"]]];
    const principal = encodePrincipal(head, json);
    // A record of some bytes sits in at most one of Node's 8 KiB pool slabs.
    expect(principal.data.byteLength).toBeLessThan(200);
    expect(principal.data.buffer.byteLength).toBeLessThanOrEqual(Buffer.poolSize);
    expect(decodePrincipal(principal).access).toEqual(access);
    const resource = encodeResource(
      {
        arn: "arn:aws:s3:::data",
        type: "AWS::S3::Bucket",
        name: "data",
        confidentiality: "",
        service: "S3",
        tags: {},
      },
      JSON.stringify({ service: "S3", tags: {} }),
      new Uint8Array([1, 2, 3]),
      "[]",
      new Map(),
    );
    for (const bytes of [resource.data, resource.outside])
      expect(bytes.buffer.byteLength).toBeLessThanOrEqual(Buffer.poolSize);
  });

  it("keep a large record's bytes whole", () => {
    // Random text does not deflate: its output spans several of zlib's output buffers.
    const json = JSON.stringify({ noise: randomBytes(40_000).toString("base64") });
    const principal = encodePrincipal(head, json);
    expect(principal.data.byteLength).toBeGreaterThan(40_000);
    expect(principal.data.buffer.byteLength).toBeLessThan(principal.data.byteLength * 2);
  });
});
