import { INBOX_BUCKET } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import type { StartedUpload } from "../src/deliver/create-s3-inbox.ts";
import { failureOf } from "./fixtures/failure-of.ts";
import { useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

const KEY = "customers/P123456-000000000001/reports/aws/210987654321/principals.csv";

describe("the S3 inbox's multipart uploads, told and aborted", () => {
  const t = useInboxWithFake();

  /** An inbox whose hooks note what they are told, and the fake's calls made by then. */
  function recordingInbox(fail?: "started") {
    const told: { event: string; uploadId: string; callsBefore: string[] }[] = [];
    const started: StartedUpload[] = [];
    const inbox = t.inbox({
      expectedBucketOwner: "210987654321",
      multipartUploads: {
        async started(upload) {
          started.push(upload);
          told.push({
            event: "started",
            uploadId: upload.uploadId,
            callsBefore: t.fake.calls.map((c) => c.operation),
          });
          if (fail === "started") throw new Error("the database is away");
        },
        async ended(uploadId) {
          told.push({
            event: "ended",
            uploadId,
            callsBefore: t.fake.calls.map((c) => c.operation),
          });
        },
      },
    });
    return { inbox, told, started };
  }

  it("is told of an upload before its first part, and once it is complete", async () => {
    const { inbox, told, started } = recordingInbox();
    const { path, sha256 } = await t.file(11 * 1024 * 1024);
    await inbox.putFile(KEY, path, { contentType: "text/csv", sha256 });
    expect(started).toEqual([
      {
        bucket: INBOX_BUCKET,
        key: KEY,
        uploadId: expect.any(String),
        region: "us-east-1",
        expectedBucketOwner: "210987654321",
      },
    ]);
    expect(told.map((e) => e.event)).toEqual(["started", "ended"]);
    expect(told[0]?.callsBefore).toEqual(["CreateMultipartUpload"]);
    expect(told[1]?.uploadId).toBe(told[0]?.uploadId);
    expect(told[1]?.callsBefore.at(-1)).toBe("CompleteMultipartUpload");
  });

  it("is told of an aborted upload's end; a failure to record aborts before any part", async () => {
    const refused = recordingInbox();
    t.fake.inject({ operation: "UploadPart", kind: "access-denied", times: 1 });
    const file = await t.file(11 * 1024 * 1024);
    await failureOf(refused.inbox.putFile(KEY, file.path, { contentType: "text/csv", ...file }));
    expect(refused.told.map((e) => e.event)).toEqual(["started", "ended"]);
    expect(refused.told[1]?.callsBefore.at(-1)).toBe("AbortMultipartUpload");

    const unrecorded = recordingInbox("started");
    const before = t.fake.calls.length;
    await failureOf(unrecorded.inbox.putFile(KEY, file.path, { contentType: "text/csv", ...file }));
    expect(t.fake.calls.slice(before).map((c) => c.operation)).toEqual([
      "CreateMultipartUpload",
      "AbortMultipartUpload",
    ]);
    expect(t.fake.uploads.size).toBe(0);
  });

  it("aborts an upload left open, and takes one S3 no longer knows as aborted", async () => {
    const { inbox, started } = recordingInbox("started");
    const file = await t.file(11 * 1024 * 1024);
    t.fake.inject({ operation: "AbortMultipartUpload", kind: "access-denied", times: 1 });
    await failureOf(inbox.putFile(KEY, file.path, { contentType: "text/csv", ...file }));
    const uploadId = started[0]?.uploadId as string;
    expect([...t.fake.uploads.keys()]).toEqual([uploadId]);
    // The bucket policy lacks s3:AbortMultipartUpload: the failure says so.
    t.fake.inject({ operation: "AbortMultipartUpload", kind: "access-denied", times: 1 });
    const denied = await failureOf(inbox.abortUpload(KEY, uploadId));
    expect(denied.code).toBe("INBOX_DENIED");
    expect(denied.message).toContain("s3:AbortMultipartUpload");
    await inbox.abortUpload(KEY, uploadId);
    expect(t.fake.uploads.size).toBe(0);
    await inbox.abortUpload(KEY, uploadId);
    expect(t.fake.calls.at(-1)).toMatchObject({ operation: "AbortMultipartUpload", status: 404 });
  });
});
