import { INBOX_BUCKET } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import { failureOf } from "./fixtures/failure-of.ts";
import { useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

const PROOF = "sightline-ownership/proof.txt";
const text = (value: string) => new TextEncoder().encode(value);

describe("the S3 inbox's readText", () => {
  const t = useInboxWithFake();

  it("reads a small object's text with a ranged GET", async () => {
    const inbox = t.inbox();
    await inbox.putBytes(PROOF, text("token-7f3e"), { contentType: "text/plain" });
    expect(await inbox.readText(PROOF)).toBe("token-7f3e");
    const get = t.fake.calls.at(-1);
    expect(get).toMatchObject({ operation: "GetObject", key: PROOF, status: 206 });
    expect(get?.headers.range).toBe("bytes=0-4095");
  });

  it("reads at most maxBytes, and an empty object as empty text", async () => {
    const inbox = t.inbox();
    await inbox.putBytes(PROOF, text("0123456789"), { contentType: "text/plain" });
    expect(await inbox.readText(PROOF, 4)).toBe("0123");
    await inbox.putBytes("empty.txt", new Uint8Array(0), { contentType: "text/plain" });
    expect(await inbox.readText("empty.txt")).toBe("");
  });

  it("answers undefined for a key that does not exist", async () => {
    expect(await t.inbox().readText(PROOF)).toBeUndefined();
  });

  it("fails INBOX_DENIED saying Sightline needs s3:GetObject on the key", async () => {
    t.fake.inject({ operation: "GetObject", kind: "access-denied" });
    const error = await failureOf(t.inbox().readText(PROOF));
    expect(error).toMatchObject({ code: "INBOX_DENIED", retryable: false });
    expect(error.message).toContain(`Sightline may not read s3://${INBOX_BUCKET}/${PROOF}`);
    expect(error.message).toContain("Sightline needs s3:GetObject on that key");
  });

  it("fails INBOX_NOT_FOUND for a bucket that does not exist", async () => {
    const error = await failureOf(t.inbox({ bucket: "no-such-inbox" }).readText(PROOF));
    expect(error.code).toBe("INBOX_NOT_FOUND");
  });
});

describe("the S3 inbox's deleteObject", () => {
  const t = useInboxWithFake();

  it("deletes an object, and a key that does not exist without failing", async () => {
    const inbox = t.inbox();
    await inbox.putBytes(PROOF, text("token"), { contentType: "text/plain" });
    await inbox.deleteObject(PROOF);
    expect(t.stored(PROOF)).toBeUndefined();
    await inbox.deleteObject(PROOF);
    const deletes = t.fake.calls.filter((call) => call.operation === "DeleteObject");
    expect(deletes.map(({ key, status }) => [key, status])).toEqual([
      [PROOF, 204],
      [PROOF, 204],
    ]);
  });

  it("fails INBOX_DENIED naming s3:DeleteObject", async () => {
    t.fake.inject({ operation: "DeleteObject", kind: "access-denied" });
    const error = await failureOf(t.inbox().deleteObject(PROOF));
    expect(error.code).toBe("INBOX_DENIED");
    expect(error.message).toContain("s3:DeleteObject");
  });
});
