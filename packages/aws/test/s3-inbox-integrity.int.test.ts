import {
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { FaultKind } from "@sightline/aws-fake";
import { INBOX_BUCKET } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import { failureOf } from "./fixtures/failure-of.ts";
import { MIB, sha256Base64, sha256Hex, useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

const KEY = "reports/2024/06/principals.csv";

describe("the S3 inbox checks what the store kept", () => {
  const t = useInboxWithFake();

  it("fails INBOX_INTEGRITY, retryable, when a PutObject is stored altered; the retry stores the file", async () => {
    const { path, bytes, sha256 } = await t.file(300_000);
    t.fake.inject({ operation: "PutObject", kind: "corrupt-body", times: 1 });
    const inbox = t.inbox();
    const error = await failureOf(inbox.putFile(KEY, path, { contentType: "text/csv", sha256 }));
    expect(error.code).toBe("INBOX_INTEGRITY");
    expect(error.retryable).toBe(true);
    const kept = t.stored(KEY);
    expect(kept?.body.equals(bytes)).toBe(false);
    expect(error.message).toContain(`s3://${INBOX_BUCKET}/${KEY}`);
    expect(error.message).toContain(sha256Base64(bytes));
    expect(error.message).toContain(kept?.checksumSha256);
    expect(error.message).toContain("the delivery will be retried");

    await inbox.putFile(KEY, path, { contentType: "text/csv", sha256 });
    expect(t.stored(KEY)?.body.equals(bytes)).toBe(true);
  });

  it("fails INBOX_INTEGRITY when a small object from memory is stored altered", async () => {
    t.fake.inject({ operation: "PutObject", kind: "corrupt-body", times: 1 });
    const manifest = new TextEncoder().encode('{"objects":[]}');
    const put = () => t.inbox().putBytes("manifest.json", manifest, { contentType: "text/json" });
    expect((await failureOf(put())).code).toBe("INBOX_INTEGRITY");
    await put();
    expect(t.stored("manifest.json")?.body.toString()).toBe('{"objects":[]}');
  });

  it("fails INBOX_INTEGRITY when a part is stored altered, aborting the upload; the retry completes it", async () => {
    const { path, bytes, sha256 } = await t.file(11 * MIB);
    t.fake.inject({ operation: "UploadPart", kind: "corrupt-body", times: 1 });
    const inbox = t.inbox();
    const error = await failureOf(inbox.putFile(KEY, path, { contentType: "text/csv", sha256 }));
    expect(error).toMatchObject({ code: "INBOX_INTEGRITY", retryable: true });
    expect(error.message).toMatch(/^The store kept other bytes .* for part \d of s3:\/\//);
    expect(t.fake.calls.map((call) => call.operation)).not.toContain("CompleteMultipartUpload");
    expect(t.fake.calls.at(-1)).toMatchObject({ operation: "AbortMultipartUpload", status: 204 });
    expect(t.stored(KEY)).toBeUndefined();

    await inbox.putFile(KEY, path, { contentType: "text/csv", sha256 });
    expect(t.stored(KEY)?.body.equals(bytes)).toBe(true);
  });

  it("fails INBOX_INTEGRITY when a copy is stored altered; the retry copies the bytes", async () => {
    const { path, bytes, sha256 } = await t.file(300_000);
    const inbox = t.inbox();
    await inbox.putFile(KEY, path, { contentType: "text/csv", sha256 });
    t.fake.inject({ operation: "CopyObject", kind: "corrupt-body", times: 1 });
    const error = await failureOf(inbox.copyObject(KEY, "latest.csv", { sha256 }));
    expect(error).toMatchObject({ code: "INBOX_INTEGRITY", retryable: true });
    expect(error.message).toContain(`s3://${INBOX_BUCKET}/latest.csv`);

    await inbox.copyObject(KEY, "latest.csv", { sha256 });
    expect(t.stored("latest.csv")?.body.equals(bytes)).toBe(true);
  });

  it("fails INBOX_INTEGRITY when a copy's source is not the file given", async () => {
    const { path, sha256 } = await t.file(1000);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    const other = sha256Hex(Buffer.from("another file"));
    const error = await failureOf(t.inbox().copyObject(KEY, "latest.csv", { sha256: other }));
    expect(error.code).toBe("INBOX_INTEGRITY");
  });

  const unconfirmed: [string, FaultKind, number][] = [
    ["PutObject", "no-checksum", 1000],
    ["UploadPart", "no-checksum", 11 * MIB],
    ["CompleteMultipartUpload", "no-checksum", 11 * MIB],
  ];
  it.each(unconfirmed)(
    "fails INBOX_INTEGRITY, not retryable, when %s reports no checksum",
    async (operation, kind, size) => {
      t.fake.inject({ operation, kind });
      const { path, sha256 } = await t.file(size);
      const error = await failureOf(
        t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 }),
      );
      expect(error).toMatchObject({ code: "INBOX_INTEGRITY", retryable: false });
      expect(error.message).toMatch(
        /^The store did not confirm the SHA-256 checksum of what it stored for .*s3:\/\/partner-inbox\/reports\/2024\/06\/principals\.csv: Sightline delivers only to stores that verify checksums \(S3 does\)/,
      );
    },
  );

  it("fails INBOX_INTEGRITY, not retryable, when a copy reports no checksum", async () => {
    const { path, sha256 } = await t.file(1000);
    await t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256 });
    t.fake.inject({ operation: "CopyObject", kind: "no-checksum" });
    const error = await failureOf(t.inbox().copyObject(KEY, "latest.csv", { sha256 }));
    expect(error).toMatchObject({ code: "INBOX_INTEGRITY", retryable: false });
  });

  it("fails INBOX_INTEGRITY when the file is not the one whose SHA-256 was given, storing nothing", async () => {
    const wrong = sha256Hex(Buffer.from("another file"));
    for (const size of [1000, 11 * MIB]) {
      const { path } = await t.file(size);
      const error = await failureOf(
        t.inbox().putFile(KEY, path, { contentType: "text/csv", sha256: wrong }),
      );
      expect(error).toMatchObject({ code: "INBOX_INTEGRITY" });
      expect(t.stored(KEY)).toBeUndefined();
    }
    const [whole] = t.fake.calls;
    expect(whole).toMatchObject({ operation: "PutObject", status: 400 });
    expect(t.fake.calls.at(-1)).toMatchObject({ operation: "AbortMultipartUpload", status: 204 });
  });
});

describe("the fake verifies x-amz-checksum-sha256, as S3 does", () => {
  const t = useInboxWithFake();
  const wrong = sha256Base64(Buffer.from("other bytes"));

  it("refuses a PutObject whose checksum is not its body's with BadDigest", async () => {
    const put = new PutObjectCommand({
      Bucket: INBOX_BUCKET,
      Key: KEY,
      Body: Buffer.from("hello"),
      ChecksumSHA256: wrong,
    });
    await expect(t.client().send(put)).rejects.toMatchObject({
      name: "BadDigest",
      message: "The SHA256 you specified did not match the calculated checksum.",
    });
    expect(t.stored(KEY)).toBeUndefined();
  });

  it("refuses such a part, and answers a right one with its checksum", async () => {
    const client = t.client();
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({
        Bucket: INBOX_BUCKET,
        Key: KEY,
        ChecksumAlgorithm: "SHA256",
      }),
    );
    const part = (ChecksumSHA256: string) =>
      new UploadPartCommand({
        Bucket: INBOX_BUCKET,
        Key: KEY,
        UploadId,
        PartNumber: 1,
        Body: Buffer.from("hello"),
        ChecksumSHA256,
      });
    await expect(client.send(part(wrong))).rejects.toMatchObject({ name: "BadDigest" });
    const right = sha256Base64(Buffer.from("hello"));
    expect((await client.send(part(right))).ChecksumSHA256).toBe(right);
  });
});
