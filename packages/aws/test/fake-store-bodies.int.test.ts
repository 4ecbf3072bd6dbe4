import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { type FakeAws, type StoreBodies, startFakeAws } from "@sightline/aws-fake";
import { addPart, createPartDigest, finishPartDigest } from "@sightline/aws-fake/internals";
import { INBOX_KEY_ARN, model as smallAccount } from "@sightline/aws-fake/small-account";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sdkClientConfig } from "../src/client-options.ts";
import { createS3Inbox } from "../src/deliver/create-s3-inbox.ts";
import { compositeOf } from "./fixtures/inbox-with-fake.ts";

const MIB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the fake's storeBodies option", () => {
  let fake: FakeAws | undefined;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sightline-fake-bodies-"));
  });
  afterEach(async () => {
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function upload(storeBodies: StoreBodies | undefined, size: number, key: string) {
    fake = await startFakeAws(smallAccount, storeBodies === undefined ? {} : { storeBodies });
    const bytes = randomBytes(size);
    const path = join(dir, key);
    await writeFile(path, bytes);
    const inbox = createS3Inbox({
      bucket: "partner-inbox",
      kmsKeyId: INBOX_KEY_ARN,
      credentials: fake.serviceCredentials,
      clientOptions: fake.clientOptions,
      multipartThresholdBytes: 6 * MIB,
      partSizeBytes: 5 * MIB,
    });
    await inbox.putFile(key, path, { contentType: "text/csv", sha256: sha256(bytes) });
    inbox.destroy();
    return { bytes, stored: fake.objects.get(`partner-inbox/${key}`) };
  }

  it("keeps bytes, size and SHA-256 by default", async () => {
    const { bytes, stored } = await upload(undefined, 300_000, "whole.csv");
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored).toMatchObject({ size: 300_000, sha256: sha256(bytes) });
  });

  it("keeps only size and SHA-256 of a whole object with storeBodies: false", async () => {
    const { bytes, stored } = await upload(false, 300_000, "whole.csv");
    expect(stored?.body.length).toBe(0);
    expect(stored).toMatchObject({ size: 300_000, sha256: sha256(bytes), multipart: false });
    expect(stored?.headers["x-amz-server-side-encryption-aws-kms-key-id"]).toBe(INBOX_KEY_ARN);
  });

  it("hashes a multipart upload part by part, and answers HEAD but not GET", async () => {
    const { bytes, stored } = await upload(false, 11 * MIB + 123, "parts.csv");
    expect(stored).toMatchObject({ size: 11 * MIB + 123, sha256: sha256(bytes), multipart: true });
    expect(stored?.body.length).toBe(0);
    expect(stored?.checksumSha256).toBe(compositeOf(bytes, 5 * MIB));

    const options = { ...fake?.clientOptions, maxAttempts: 1 };
    const client = new S3Client({
      ...sdkClientConfig("s3", "us-east-1", fake?.serviceCredentials, options),
      forcePathStyle: true,
    });
    const head = await client.send(
      new HeadObjectCommand({ Bucket: "partner-inbox", Key: "parts.csv" }),
    );
    expect(head.ContentLength).toBe(11 * MIB + 123);
    await expect(
      client.send(new GetObjectCommand({ Bucket: "partner-inbox", Key: "parts.csv" })),
    ).rejects.toMatchObject({ name: "NotImplemented" });
    client.destroy();
  });

  it("keeps the bodies a predicate chooses", async () => {
    const keep: StoreBodies = ({ key }) => key.endsWith(".json");
    const { bytes, stored } = await upload(keep, 1000, "manifest.json");
    expect(stored?.body.equals(bytes)).toBe(true);
    const other = await upload(keep, 1000, "report.csv");
    expect(other.stored?.body.length).toBe(0);
    expect(other.stored?.sha256).toBe(sha256(other.bytes));
  });
});

describe("the digest of parts arriving out of order", () => {
  const parts = [randomBytes(100), randomBytes(200), randomBytes(300)];
  const whole = sha256(Buffer.concat(parts));
  const add = (digest: ReturnType<typeof createPartDigest>, n: number) =>
    addPart(digest, n, parts[n - 1] as Buffer, sha256(parts[n - 1] as Buffer));

  it("hashes each part once those before it have arrived", () => {
    const digest = createPartDigest();
    add(digest, 3);
    add(digest, 1);
    expect(digest.waiting.size).toBe(1);
    add(digest, 1); // a retried part, already hashed
    add(digest, 2);
    expect(digest.waiting.size).toBe(0);
    expect(finishPartDigest(digest, [1, 2, 3])).toEqual({ size: 600, sha256: whole });
  });

  it("refuses a part missing from the list, or a hashed part sent again with other bytes", () => {
    const gap = createPartDigest();
    add(gap, 1);
    add(gap, 3);
    expect(() => finishPartDigest(gap, [1, 2, 3])).toThrow("Part 2 was not uploaded");
    const changed = createPartDigest();
    add(changed, 1);
    addPart(changed, 1, randomBytes(100), "another");
    expect(() => finishPartDigest(changed, [1])).toThrow("part 1 changed after it was hashed");
  });
});
