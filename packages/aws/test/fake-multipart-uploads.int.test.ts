import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
} from "@aws-sdk/client-s3";
import { INBOX_BUCKET } from "@sightline/aws-fake/small-account";
import { describe, expect, it } from "vitest";
import { useInboxWithFake } from "./fixtures/inbox-with-fake.ts";

// The fake's incomplete multipart uploads, as a killed delivery leaves them: listed by
// ListMultipartUploads (by prefix) and `fake.uploads`, until aborted or completed.
describe("the fake's multipart uploads", () => {
  const t = useInboxWithFake();

  it("lists the uploads neither completed nor aborted, by prefix, and forgets an aborted one", async () => {
    const client = t.client();
    const start = async (Key: string) =>
      (await client.send(new CreateMultipartUploadCommand({ Bucket: INBOX_BUCKET, Key })))
        .UploadId ?? "";
    const first = await start("customers/C1/reports/a.csv");
    const second = await start("customers/C1/reports/b.csv");
    await start("customers/C2/reports/a.csv");
    const listed = await client.send(
      new ListMultipartUploadsCommand({ Bucket: INBOX_BUCKET, Prefix: "customers/C1/" }),
    );
    expect(listed.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([
      ["customers/C1/reports/a.csv", first],
      ["customers/C1/reports/b.csv", second],
    ]);
    expect(listed.Uploads?.[0]?.Initiated).toBeInstanceOf(Date);
    expect(listed.IsTruncated).toBe(false);
    expect(t.fake.uploads.size).toBe(3);

    await client.send(
      new AbortMultipartUploadCommand({
        Bucket: INBOX_BUCKET,
        Key: "customers/C1/reports/a.csv",
        UploadId: first,
      }),
    );
    const after = await client.send(
      new ListMultipartUploadsCommand({ Bucket: INBOX_BUCKET, Prefix: "customers/C1/" }),
    );
    expect(after.Uploads?.map((u) => u.UploadId)).toEqual([second]);
    expect([...t.fake.uploads.values()].map((u) => u.key).sort()).toEqual([
      "customers/C1/reports/b.csv",
      "customers/C2/reports/a.csv",
    ]);
    const none = await client.send(
      new ListMultipartUploadsCommand({ Bucket: INBOX_BUCKET, Prefix: "customers/C3/" }),
    );
    expect(none.Uploads ?? []).toEqual([]);
  });
});
