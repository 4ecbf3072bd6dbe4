import { INBOX_KEY_ARN } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import { failureOf } from "./fixtures/failure-of.ts";
import { compositeOf, MIB, sha256Base64, useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

const KEY =
  "customers/P123456-000000000001/reports/aws/210987654321/2024/06/principals.2024-06-01-1200.csv";

describe("createS3Inbox", () => {
  const t = useInboxWithFake();

  it("streams a file as one PutObject of known length with its SHA-256 checksum, not aws-chunked", async () => {
    const { path, bytes, sha256 } = await t.file(300_000);
    const result = await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    expect(result).toMatchObject({ key: KEY, size: 300_000 });
    const stored = t.stored(KEY);
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored).toMatchObject({ multipart: false, checksumSha256: sha256Base64(bytes) });
    expect(stored?.accessKeyId).toBe(t.fake.serviceCredentials.accessKeyId);
    expect(stored?.headers).toMatchObject({
      "content-type": "text/csv",
      "content-length": "300000",
      "x-amz-checksum-sha256": sha256Base64(bytes),
      "x-amz-server-side-encryption": "aws:kms",
      "x-amz-server-side-encryption-aws-kms-key-id": INBOX_KEY_ARN,
    });
    expect(stored?.headers["content-encoding"] ?? "").not.toContain("aws-chunked");
    expect(stored?.headers["x-amz-trailer"]).toBeUndefined();
    expect(t.fake.calls.map(({ operation, key }) => [operation, key])).toEqual([
      ["PutObject", KEY],
    ]);
  });

  it("uploads a file above the threshold in checksummed parts and checks the composite checksum", async () => {
    const { path, bytes, sha256 } = await t.file(11 * MIB + 123);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    const stored = t.stored(KEY);
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored?.multipart).toBe(true);
    expect(stored?.checksumSha256).toBe(compositeOf(bytes, 5 * MIB));
    expect(stored?.checksumSha256).toMatch(/-3$/);
    expect(stored?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(INBOX_KEY_ARN);
    const [create, ...rest] = t.fake.calls;
    expect(create?.headers["x-amz-checksum-algorithm"]).toBe("SHA256");
    const parts = rest.filter((call) => call.operation === "UploadPart");
    expect(parts).toHaveLength(3);
    for (const part of parts) {
      expect(part.headers["content-encoding"] ?? "").not.toContain("aws-chunked");
      expect(part.headers["content-length"]).toMatch(/^\d+$/);
    }
    const sentChecksums = parts.map((part) => part.headers["x-amz-checksum-sha256"]).sort();
    const expected = [0, 1, 2].map((i) =>
      sha256Base64(bytes.subarray(i * 5 * MIB, (i + 1) * 5 * MIB)),
    );
    expect(sentChecksums).toEqual(expected.sort());
    expect(t.fake.calls.at(-1)?.operation).toBe("CompleteMultipartUpload");
  });

  it("sends more parts than it holds at once from reused buffers, each signed with its own digest", async () => {
    // Nine parts of 5 MiB, four in flight: the buffers of the first parts carry the later ones.
    const { path, bytes, sha256 } = await t.file(41 * MIB + 7);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    const stored = t.stored(KEY);
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored?.checksumSha256).toBe(compositeOf(bytes, 5 * MIB));
    const parts = t.fake.calls.filter((call) => call.operation === "UploadPart");
    expect(parts).toHaveLength(9);
    // SigV4's payload hash is the part's SHA-256, the digest its checksum header carries.
    for (const part of parts) {
      const checksum = part.headers["x-amz-checksum-sha256"] ?? "";
      expect(part.headers["x-amz-content-sha256"]).toBe(
        Buffer.from(checksum, "base64").toString("hex"),
      );
    }
    const sent = parts.map((part) => part.headers["x-amz-checksum-sha256"]).sort();
    const expected = Array.from({ length: 9 }, (_, i) =>
      sha256Base64(bytes.subarray(i * 5 * MIB, (i + 1) * 5 * MIB)),
    );
    expect(sent).toEqual(expected.sort());
  });

  it("retries a streamed write that met an outage, reopening the file", async () => {
    t.fake.inject({ operation: "PutObject", kind: "server-error", times: 2 });
    const { path, bytes, sha256 } = await t.file(200_000);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    expect(t.fake.calls.map((call) => call.status)).toEqual([500, 500, 200]);
    expect(t.stored(KEY)?.body.equals(bytes)).toBe(true);
  });

  it("lets the SDK retry a part that met an outage", async () => {
    t.fake.inject({ operation: "UploadPart", kind: "server-error", times: 1 });
    const { path, bytes, sha256 } = await t.file(11 * MIB);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    const parts = t.fake.calls.filter((call) => call.operation === "UploadPart");
    expect(parts.map((call) => call.status).sort()).toEqual([200, 200, 200, 500]);
    expect(t.stored(KEY)?.body.equals(bytes)).toBe(true);
  });

  it("aborts a multipart upload whose part is refused, and stores nothing", async () => {
    t.fake.inject({ operation: "UploadPart", kind: "access-denied", times: 1 });
    const { path, sha256 } = await t.file(11 * MIB);
    const error = await failureOf(
      t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 }),
    );
    expect(error.code).toBe("INBOX_DENIED");
    const operations = t.fake.calls.map((call) => call.operation);
    expect(operations).not.toContain("CompleteMultipartUpload");
    expect(t.fake.calls.at(-1)).toMatchObject({ operation: "AbortMultipartUpload", status: 204 });
    expect(t.stored(KEY)).toBeUndefined();
  });

  it("writes a small object from memory with its checksum", async () => {
    const manifest = new TextEncoder().encode('{"objects":[]}');
    await t.inbox().putBytes("manifest.json", manifest, { contentType: "application/json" });
    const stored = t.stored("manifest.json");
    expect(stored?.body.toString()).toBe('{"objects":[]}');
    expect(stored?.headers["x-amz-server-side-encryption"]).toBe("aws:kms");
    expect(stored?.headers["x-amz-checksum-sha256"]).toBe(sha256Base64(manifest));
  });

  it("copies an object within the inbox, under the inbox key, checking the copy's checksum", async () => {
    const { path, bytes, sha256 } = await t.file(300_000);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    const sent = t.fake.calls.length;
    await t.inbox().copyObject(KEY, "latest/copy.csv", { sha256 });
    const copy = t.stored("latest/copy.csv");
    expect(copy?.body.equals(bytes)).toBe(true);
    expect(copy?.checksumSha256).toBe(sha256Base64(bytes));
    expect(copy?.headers["content-type"]).toBe("text/csv");
    expect(copy?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(INBOX_KEY_ARN);
    const calls = t.fake.calls.slice(sent);
    expect(calls.map(({ operation, key }) => [operation, key])).toEqual([
      ["CopyObject", "latest/copy.csv"],
    ]);
    expect(calls[0]?.headers["x-amz-checksum-algorithm"]).toBe("SHA256");
    t.fake.inject({ operation: "CopyObject", kind: "access-denied" });
    const denied = await failureOf(t.inbox().copyObject(KEY, "latest/again.csv", { sha256 }));
    expect(denied.code).toBe("INBOX_DENIED");
    expect(denied.message).toContain("s3:GetObject on the source");
  });

  it("copies a multipart object to a full-object checksum of the same bytes", async () => {
    const { path, bytes, sha256 } = await t.file(11 * MIB);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    await t.inbox().copyObject(KEY, "latest/copy.csv", { sha256 });
    expect(t.stored("latest/copy.csv")?.checksumSha256).toBe(sha256Base64(bytes));
  });

  it("fails INBOX_DENIED, not retryable, when the bucket refuses the write", async () => {
    t.fake.inject({ operation: "PutObject", kind: "access-denied" });
    const { path, sha256 } = await t.file(1000);
    const error = await failureOf(
      t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 }),
    );
    expect(error.code).toBe("INBOX_DENIED");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`Sightline may not write s3://partner-inbox/${KEY}`);
    expect(error.message).toContain(INBOX_KEY_ARN);
  });

  it("fails INBOX_NOT_FOUND for a bucket that does not exist", async () => {
    const { path, sha256 } = await t.file(1000);
    const error = await failureOf(
      t.inbox({ bucket: "no-such-inbox" }).putFile(KEY, path, { contentType: "text/csv", sha256 }),
    );
    expect(error.code).toBe("INBOX_NOT_FOUND");
    expect(error.message).toMatch(/^The inbox bucket no-such-inbox does not exist/);
  });

  it("fails INBOX_DENIED when S3 cannot use the KMS key", async () => {
    const missingKey =
      "arn:aws:kms:us-east-1:210987654321:key/00000000-0000-0000-0000-000000000000";
    const error = await failureOf(
      t.inbox({ kmsKeyId: missingKey }).putBytes("k", new Uint8Array(1), {
        contentType: "text/plain",
      }),
    );
    expect(error.code).toBe("INBOX_DENIED");
    expect(error.message).toContain("KMS.NotFoundException");
  });
});
