import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import type { FakeState } from "@sightline/aws-fake/internals";
import { takeFault } from "@sightline/aws-fake/internals";
import { INBOX_BUCKET, INBOX_KEY_ARN } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import { failureOf } from "./fixtures/failure-of.ts";
import { MIB, sha256Base64, useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

const bytes = new TextEncoder().encode("report");
const json = { contentType: "application/json" };

describe("the fake's faults", () => {
  const t = useInboxWithFake();

  it("fail the store after N objects (after)", async () => {
    t.fake.inject({ service: "s3", operation: "*", kind: "access-denied", after: 2 });
    const inbox = t.inbox();
    await inbox.putBytes("a.json", bytes, json);
    await inbox.putBytes("b.json", bytes, json);
    expect((await failureOf(inbox.putBytes("c.json", bytes, json))).code).toBe("INBOX_DENIED");
    expect((await failureOf(inbox.readText("a.json"))).code).toBe("INBOX_DENIED");
    expect(t.fake.calls.map(({ key, status }) => [key, status])).toEqual([
      ["a.json", 200],
      ["b.json", 200],
      ["c.json", 403],
      ["a.json", 403],
    ]);
  });

  it("alter one call after the first (after with times)", async () => {
    t.fake.inject({ operation: "PutObject", kind: "corrupt-body", after: 1, times: 1 });
    const inbox = t.inbox();
    await inbox.putBytes("a.json", bytes, json);
    expect((await failureOf(inbox.putBytes("b.json", bytes, json))).code).toBe("INBOX_INTEGRITY");
    await inbox.putBytes("c.json", bytes, json);
    expect(t.stored("b.json")?.body.toString()).toBe("6\r\nreport\r\n0\r\n\r\n");
    expect(t.stored("c.json")?.body.toString()).toBe("report");
  });

  it("alter only the writes they apply to", async () => {
    t.fake.inject({ operation: "*", kind: "corrupt-body", times: 1 });
    const { path, sha256 } = await t.file(6 * MIB);
    const error = await failureOf(
      t.inbox().putFile("a.csv", path, { contentType: "text/csv", sha256 }),
    );
    expect(error.code).toBe("INBOX_INTEGRITY");
    const [create, part] = t.fake.calls;
    expect(create).toMatchObject({ operation: "CreateMultipartUpload", status: 200 });
    expect(part).toMatchObject({ operation: "UploadPart", status: 200 });
    await t.inbox().putBytes("b.json", bytes, json);
  });

  it("let a GET or HEAD of the whole object answer its checksum when asked, as S3 does", async () => {
    await t.inbox().putBytes("a.json", bytes, json);
    const client = t.client();
    const input = { Bucket: INBOX_BUCKET, Key: "a.json", ChecksumMode: "ENABLED" as const };
    const got = await client.send(new GetObjectCommand(input));
    expect(await got.Body?.transformToString()).toBe("report");
    expect(got.ChecksumSHA256).toBe(sha256Base64(bytes));
    const head = await client.send(new HeadObjectCommand(input));
    expect(head.ChecksumSHA256).toBe(sha256Base64(bytes));
  });
});

describe("the fake's slow calls, bucket policies and key states", () => {
  const t = useInboxWithFake();

  it("answer a delayed call late, and keep nothing of one whose caller hung up first", async () => {
    t.fake.inject({ operation: "PutObject", kind: "delay", delayMs: 300, times: 1 });
    const started = Date.now();
    await t.inbox().putBytes("slow.json", bytes, json);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(t.stored("slow.json")?.body.toString()).toBe("report");

    t.fake.inject({ operation: "PutObject", kind: "delay", delayMs: 60_000, times: 1 });
    const hurried = t.inbox({
      clientOptions: { ...t.fake.clientOptions, maxAttempts: 1, requestTimeoutMs: 200 },
    });
    const error = await failureOf(hurried.putBytes("cut.json", bytes, json));
    expect(error.code).toBe("CLOUD_UNAVAILABLE");
    // The fake notices the hang-up; the object never lands.
    await expect.poll(() => t.fake.calls.at(-1)?.status).toBe(499);
    expect(t.stored("cut.json")).toBeUndefined();
  });

  it("refuse a write the bucket policy denies the caller, as S3 does", async () => {
    await t.inbox().putBytes("before.json", bytes, json);
    t.fake.control.setBucketPolicy(INBOX_BUCKET, {
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Deny",
          Principal: "*",
          Action: ["s3:Put*"],
          Resource: `arn:aws:s3:::${INBOX_BUCKET}/*`,
        },
      ],
    });
    const error = await failureOf(t.inbox().putBytes("after.json", bytes, json));
    expect(error.code).toBe("INBOX_DENIED");
    expect(t.stored("after.json")).toBeUndefined();
    // Reads are not denied by that statement.
    expect(await t.inbox().readText("before.json")).toBe("report");
  });

  it("refuse a write encrypted under a disabled key", async () => {
    t.fake.control.changeKeyState(INBOX_KEY_ARN, "us-east-1", "DisableKey");
    const error = await failureOf(t.inbox().putBytes("a.json", bytes, json));
    expect(error.code).toBe("INBOX_DENIED");
    expect(error.message).toMatch(/enabled/);
    t.fake.control.changeKeyState(INBOX_KEY_ARN, "us-east-1", "EnableKey");
    await t.inbox().putBytes("a.json", bytes, json);
  });
});

describe("takeFault", () => {
  const state = (...faults: Parameters<FakeState["faults"]["push"]>) =>
    ({ faults }) as unknown as FakeState;

  it("counts a call against a fault still letting calls pass, and lets a later fault match", () => {
    const faults = state(
      { fault: { operation: "PutObject", kind: "throttle" }, remaining: 1, toPass: 1 },
      { fault: { operation: "*", kind: "server-error" }, remaining: 1, toPass: 0 },
    );
    expect(takeFault(faults, "s3", "PutObject", "b")).toBe("server-error");
    expect(takeFault(faults, "s3", "PutObject", "b")).toBe("throttle");
    expect(takeFault(faults, "s3", "PutObject", "b")).toBeUndefined();
  });

  it("matches an alteration only on the S3 operations it applies to", () => {
    const faults = state({
      fault: { operation: "*", kind: "no-checksum" },
      remaining: 1,
      toPass: 0,
    });
    expect(takeFault(faults, "s3", "GetObject", "b")).toBeUndefined();
    expect(takeFault(faults, "kms", "Decrypt", "k")).toBeUndefined();
    expect(takeFault(faults, "s3", "CompleteMultipartUpload", "b")).toBe("no-checksum");
  });
});
