import { ACCOUNT_ID, INBOX_BUCKET, model } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import { failureOf } from "./fixtures/failure-of.ts";
import { MIB, useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

const OTHER_ACCOUNT = "111122223333";

describe("the S3 inbox's ExpectedBucketOwner", () => {
  const t = useInboxWithFake();

  it("goes with every request, and the copy's source owner with CopyObject", async () => {
    const inbox = t.inbox({ expectedBucketOwner: ACCOUNT_ID });
    const small = await t.file(1000);
    const large = await t.file(11 * MIB);
    await inbox.putFile("small.csv", small.path, { contentType: "text/csv", ...small });
    await inbox.putFile("large.csv", large.path, { contentType: "text/csv", ...large });
    await inbox.putBytes("manifest.json", new Uint8Array(3), { contentType: "text/json" });
    await inbox.copyObject("small.csv", "latest.csv", small);
    expect(await inbox.readText("manifest.json")).toBe("\0\0\0");
    await inbox.deleteObject("latest.csv");
    t.fake.inject({ operation: "UploadPart", kind: "access-denied", times: 1 });
    await failureOf(inbox.putFile("large.csv", large.path, { contentType: "text/csv", ...large }));

    const operations = new Set(t.fake.calls.map((call) => call.operation));
    expect([...operations].sort()).toEqual([
      "AbortMultipartUpload",
      "CompleteMultipartUpload",
      "CopyObject",
      "CreateMultipartUpload",
      "DeleteObject",
      "GetObject",
      "PutObject",
      "UploadPart",
    ]);
    for (const call of t.fake.calls) {
      expect(call.headers["x-amz-expected-bucket-owner"], call.operation).toBe(ACCOUNT_ID);
    }
    const copy = t.fake.calls.find((call) => call.operation === "CopyObject");
    expect(copy?.headers["x-amz-source-expected-bucket-owner"]).toBe(ACCOUNT_ID);
  });

  it("fails INBOX_DENIED naming the expected account when the bucket is another's, writing nothing", async () => {
    const inbox = t.inbox({ expectedBucketOwner: OTHER_ACCOUNT });
    const small = await t.file(1000);
    const large = await t.file(11 * MIB);
    const attempts = [
      () => inbox.putFile("small.csv", small.path, { contentType: "text/csv", ...small }),
      () => inbox.putFile("large.csv", large.path, { contentType: "text/csv", ...large }),
      () => inbox.putBytes("manifest.json", new Uint8Array(3), { contentType: "text/json" }),
      () => inbox.readText("proof.txt"),
      () => inbox.deleteObject("small.csv"),
    ];
    for (const attempt of attempts) {
      const error = await failureOf(attempt());
      expect(error).toMatchObject({ code: "INBOX_DENIED", retryable: false });
      expect(error.message).toContain(`expected bucket owner, account ${OTHER_ACCOUNT}`);
    }
    expect(t.fake.objects.size).toBe(0);
    expect(new Set(t.fake.calls.map((call) => call.status))).toEqual(new Set([403]));
  });

  it("refuses a copy whose source bucket is not the expected account's", async () => {
    const small = await t.file(1000);
    await t.inbox().putFile("small.csv", small.path, { contentType: "text/csv", ...small });
    const error = await failureOf(
      t.inbox({ expectedBucketOwner: OTHER_ACCOUNT }).copyObject("small.csv", "latest.csv", small),
    );
    expect(error.code).toBe("INBOX_DENIED");
    expect(t.stored("latest.csv")).toBeUndefined();
  });

  it("refuses an owner that is not a 12-digit account ID", () => {
    expect(() => t.inbox({ expectedBucketOwner: "acme" })).toThrow(/12-digit AWS account ID/);
  });
});

describe("a bucket of another account (FakeBucket.ownerAccountId)", () => {
  const buckets = (model.buckets ?? []).map((bucket) =>
    bucket.name === INBOX_BUCKET ? { ...bucket, ownerAccountId: OTHER_ACCOUNT } : bucket,
  );
  const t = useInboxWithFake({ ...model, buckets });

  it("accepts the writes that expect its owner and refuses those that expect the model's", async () => {
    const bytes = new Uint8Array(3);
    await t.inbox({ expectedBucketOwner: OTHER_ACCOUNT }).putBytes("a.json", bytes, {
      contentType: "text/json",
    });
    const refused = t.inbox({ expectedBucketOwner: ACCOUNT_ID });
    const error = await failureOf(refused.putBytes("b.json", bytes, { contentType: "text/json" }));
    expect(error.code).toBe("INBOX_DENIED");
    expect([...t.fake.objects.keys()]).toEqual([`${INBOX_BUCKET}/a.json`]);
  });
});
