import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createS3Inbox } from "../src/deliver/create-s3-inbox.ts";
import { type FakeAws, startFakeAws } from "../src/testing/index.ts";
import { INBOX_KEY_ARN, model as smallAccount } from "../src/testing/small-account.ts";
import { failureOf } from "./fixtures/failure-of.ts";

const MIB = 1024 * 1024;
const KEY =
  "customers/P123456-000000000001/reports/aws/210987654321/2024/06/principals.2024-06-01-1200.csv";

describe("createS3Inbox", () => {
  let fake: FakeAws;
  let dir: string;
  beforeEach(async () => {
    fake = await startFakeAws(smallAccount);
    dir = await mkdtemp(join(tmpdir(), "sightline-inbox-"));
  });
  afterEach(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  const inbox = (bucket = "partner-inbox", kmsKeyId = INBOX_KEY_ARN) =>
    createS3Inbox({
      bucket,
      kmsKeyId,
      credentials: fake.serviceCredentials,
      clientOptions: fake.clientOptions,
      multipartThresholdBytes: 6 * MIB,
      partSizeBytes: 5 * MIB,
    });
  async function file(size: number): Promise<{ path: string; bytes: Buffer }> {
    const bytes = randomBytes(size);
    const path = join(dir, `report-${size}.csv`);
    await writeFile(path, bytes);
    return { path, bytes };
  }

  it("streams a file as one aws-chunked PutObject under SSE-KMS with the inbox key", async () => {
    const { path, bytes } = await file(300_000);
    const result = await inbox().putFile(KEY, path, { contentType: "text/csv" });
    expect(result).toMatchObject({ key: KEY, size: 300_000 });
    const stored = fake.objects.get(`partner-inbox/${KEY}`);
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored?.multipart).toBe(false);
    expect(stored?.accessKeyId).toBe(fake.serviceCredentials.accessKeyId);
    expect(stored?.headers).toMatchObject({
      "content-type": "text/csv",
      "content-encoding": expect.stringContaining("aws-chunked"),
      "x-amz-decoded-content-length": "300000",
      "x-amz-server-side-encryption": "aws:kms",
      "x-amz-server-side-encryption-aws-kms-key-id": INBOX_KEY_ARN,
    });
  });

  it("uploads a file above the threshold in parts, each part and the object under the key", async () => {
    const { path, bytes } = await file(11 * MIB + 123);
    await inbox().putFile(KEY, path, { contentType: "text/csv" });
    const stored = fake.objects.get(`partner-inbox/${KEY}`);
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored?.multipart).toBe(true);
    expect(stored?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(INBOX_KEY_ARN);
    const operations = fake.calls.map((call) => call.operation);
    expect(operations.filter((operation) => operation === "UploadPart")).toHaveLength(3);
    expect(operations.at(-1)).toBe("CompleteMultipartUpload");
  });

  it("retries a streamed write that met an outage, reopening the file", async () => {
    fake.inject({ operation: "PutObject", kind: "server-error", times: 2 });
    const { path, bytes } = await file(200_000);
    await inbox().putFile(KEY, path, { contentType: "text/csv" });
    expect(fake.calls.map((call) => call.status)).toEqual([500, 500, 200]);
    expect(fake.objects.get(`partner-inbox/${KEY}`)?.body.equals(bytes)).toBe(true);
  });

  it("writes a small object from memory", async () => {
    const manifest = new TextEncoder().encode('{"objects":[]}');
    await inbox().putBytes("manifest.json", manifest, { contentType: "application/json" });
    const stored = fake.objects.get("partner-inbox/manifest.json");
    expect(stored?.body.toString()).toBe('{"objects":[]}');
    expect(stored?.headers["x-amz-server-side-encryption"]).toBe("aws:kms");
  });

  it("copies an object within the inbox, under the inbox key, without sending it again", async () => {
    const { path, bytes } = await file(300_000);
    await inbox().putFile(KEY, path, { contentType: "text/csv" });
    const sent = fake.calls.length;
    await inbox().copyObject(KEY, "latest/copy.csv");
    const copy = fake.objects.get("partner-inbox/latest/copy.csv");
    expect(copy?.body.equals(bytes)).toBe(true);
    expect(copy?.headers["content-type"]).toBe("text/csv");
    expect(copy?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(INBOX_KEY_ARN);
    expect(fake.calls.slice(sent).map((call) => call.operation)).toEqual(["CopyObject"]);
    fake.inject({ operation: "CopyObject", kind: "access-denied" });
    expect((await failureOf(inbox().copyObject(KEY, "latest/again.csv"))).code).toBe(
      "INBOX_DENIED",
    );
  });

  it("fails INBOX_DENIED, not retryable, when the bucket refuses the write", async () => {
    fake.inject({ operation: "PutObject", kind: "access-denied" });
    const { path } = await file(1000);
    const error = await failureOf(inbox().putFile(KEY, path, { contentType: "text/csv" }));
    expect(error.code).toBe("INBOX_DENIED");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`Sightline may not write s3://partner-inbox/${KEY}`);
    expect(error.message).toContain(INBOX_KEY_ARN);
  });

  it("fails INBOX_NOT_FOUND for a bucket that does not exist", async () => {
    const { path } = await file(1000);
    const error = await failureOf(
      inbox("no-such-inbox").putFile(KEY, path, { contentType: "text/csv" }),
    );
    expect(error.code).toBe("INBOX_NOT_FOUND");
    expect(error.message).toMatch(/^The inbox bucket no-such-inbox does not exist/);
  });

  it("fails INBOX_DENIED when S3 cannot use the KMS key", async () => {
    const missingKey =
      "arn:aws:kms:us-east-1:210987654321:key/00000000-0000-0000-0000-000000000000";
    const error = await failureOf(
      inbox("partner-inbox", missingKey).putBytes("k", new Uint8Array(1), {
        contentType: "text/plain",
      }),
    );
    expect(error.code).toBe("INBOX_DENIED");
    expect(error.message).toContain("KMS.NotFoundException");
  });
});
