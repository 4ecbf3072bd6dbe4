import { smallAccount } from "@sightline/aws-fake";
import { DeliveryVerification } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { startE2e } from "./e2e-pipeline.ts";

/** Requests that change a bucket's content. */
const WRITES = new Set([
  "PutObject",
  "CopyObject",
  "CreateMultipartUpload",
  "UploadPart",
  "CompleteMultipartUpload",
  "DeleteObject",
]);

const { h, fake, configure, prove, triggerAndWait } = await startE2e();
const inbox = smallAccount.INBOX_BUCKET;
const writesTo = (bucket: string, since: number) =>
  fake.calls.slice(since).filter((call) => call.resource === bucket && WRITES.has(call.operation));

describe("a partner's reports reach only a bucket it has proven to control", () => {
  it("fails partner B's analysis naming partner A's bucket, and sends A's bucket no write", async () => {
    const a = await configure({ bucketName: inbox });
    await prove(a);
    const b = await configure({ bucketName: inbox });
    const before = fake.calls.length;
    const execution = await triggerAndWait(b);
    expect(execution.status).toBe("failed");
    expect(execution.failure?.code).toBe("INBOX_UNPROVEN");
    expect(execution.failure?.message).toContain(
      `GET /partner/${b.partnerId}/delivery-verification`,
    );
    expect(execution.failure?.message).toContain(
      `s3://${inbox}/sightline-delivery-verification/${b.partnerId}.txt`,
    );
    expect(execution.failure?.message).not.toContain(a.partnerId);
    expect(writesTo(inbox, before)).toEqual([]);
    // Nothing of B's customer was even collected.
    const calls = fake.calls.slice(before).map((call) => call.operation);
    expect(calls).not.toContain("AssumeRole");
    expect(calls).toContain("GetObject");

    // A's proven destination still receives everything.
    const delivered = await triggerAndWait(a);
    expect(delivered.status).toBe("succeeded");
    // k9's 4 reports × 2 formats × (dated, latest), paths, changes and findings × (dated,
    // latest), the hive copies (8 k9's, 7 Sightline's), 2 manifests.
    expect(delivered.reports).toHaveLength(4 * 2 * 2 + 3 * 2 + 8 + 7 + 2);
    for (const key of delivered.reports) expect(fake.objects.has(`${inbox}/${key}`)).toBe(true);
  });

  it("needs a new proof when the destination changes, and says so in the verification", async () => {
    const a = await configure({ bucketName: inbox });
    const first = await prove(a);
    expect((await triggerAndWait(a)).status).toBe("succeeded");
    const verified = await h.call("GET", `/partner/${a.partnerId}/delivery-verification`, {
      key: a.key,
    });
    expect(DeliveryVerification.parse(verified.json)).toMatchObject({
      status: "proven",
      token: first.token,
      provenAt: expect.any(String),
    });

    const moved = await h.call("PUT", `/partner/${a.partnerId}`, {
      key: a.key,
      body: {
        partnerId: a.partnerId,
        awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
        deliveryDestinations: {
          DeliverToS3: { bucketName: inbox, expectedBucketOwner: smallAccount.ACCOUNT_ID },
        },
      },
    });
    expect(moved.status).toBe(200);
    const renewed = DeliveryVerification.parse(
      (await h.call("GET", `/partner/${a.partnerId}/delivery-verification`, { key: a.key })).json,
    );
    expect(renewed).toMatchObject({
      status: "unproven",
      expectedBucketOwner: smallAccount.ACCOUNT_ID,
    });
    expect(renewed.token).not.toBe(first.token);
    // The old token is still in the bucket: it proves nothing for the new destination.
    const before = fake.calls.length;
    const refused = await triggerAndWait(a);
    expect(refused.failure?.code).toBe("INBOX_UNPROVEN");
    expect(writesTo(inbox, before)).toEqual([]);
    await prove(a);
    expect((await triggerAndWait(a)).status).toBe("succeeded");
  });

  it("sends ExpectedBucketOwner, and writes nothing in a bucket of another account", async () => {
    const a = await configure({ bucketName: inbox, expectedBucketOwner: "111122223333" });
    await prove(a);
    const before = fake.calls.length;
    const execution = await triggerAndWait(a);
    expect(execution.status).toBe("failed");
    // The proof is read with ExpectedBucketOwner too: S3 refuses it, and nothing is proven.
    expect(execution.failure?.code).toBe("INBOX_UNPROVEN");
    expect(execution.failure?.message).toContain("expected bucket owner, account 111122223333");
    expect(writesTo(inbox, before)).toEqual([]);
  });

  it("answers 404 for a partner without a bucket, and 403 to another partner's key", async () => {
    const a = await configure(false);
    const none = await h.call("GET", `/partner/${a.partnerId}/delivery-verification`, {
      key: a.key,
    });
    expect(none.status).toBe(404);
    expect(none.json.message).toContain("local inbox");
    const b = await configure({ bucketName: inbox });
    const other = await h.call("GET", `/partner/${b.partnerId}/delivery-verification`, {
      key: a.key,
    });
    expect(other.status).toBe(403);
    expect(other.text).not.toContain("sightline-verification-");
  });
});

describe("a direct customer's bucket", () => {
  it("is verified the same way, under the customer's own key", async () => {
    const customer = await h.newDirectCustomer();
    const path = `/customer/${customer.customerId}/delivery-verification`;
    expect((await h.call("GET", path, { key: customer.key })).status).toBe(404);
    const put = await h.call("PUT", `/customer/${customer.customerId}`, {
      key: customer.key,
      body: {
        customerId: customer.customerId,
        awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
        deliveryDestinations: { DeliverToS3: { bucketName: inbox } },
      },
    });
    expect(put.status).toBe(200);
    const asked = await h.call("GET", path, { key: customer.key });
    expect(asked.status).toBe(200);
    expect(DeliveryVerification.parse(asked.json)).toMatchObject({
      bucketName: inbox,
      key: `sightline-delivery-verification/${customer.customerId}.txt`,
      status: "unproven",
    });
    const partner = await h.newPartner();
    expect((await h.call("GET", path, { key: partner.key })).status).toBe(403);
  });
});
