import { randomInt } from "node:crypto";
import { createDb } from "@sightline/db";
import { AppError } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";
import { proveDestination } from "../src/delivery/delivery-verification.ts";
import type { ReportInbox } from "../src/delivery/report-inbox.ts";

const database = createDb(inject("databaseUrl"), { maxConnections: 2 });
afterAll(() => database.close());

const noWrite = () => Promise.reject(new Error("no write expected"));

/** The proof read as real S3 answers a missing key to a caller without s3:ListBucket: 403. */
describe("a proof S3 refuses to read", () => {
  it("leaves the destination unproven, saying why, instead of failing as a denied write", async () => {
    const refused: ReportInbox = {
      location: "s3://inbox",
      readText: () =>
        Promise.reject(new AppError("INBOX_DENIED", "Sightline may not read s3://inbox/k")),
      putFile: noWrite,
      putBytes: noWrite,
      copyObject: noWrite,
      deleteObject: noWrite,
      destroy() {},
    };
    const ownerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
    await expect(
      proveDestination(database.db, { ownerId, bucketName: "inbox" }, refused, {
        allowUnproven: false,
      }),
    ).rejects.toMatchObject({
      code: "INBOX_UNPROVEN",
      message: expect.stringContaining("reading it was refused: Sightline may not read"),
    });
  });
});
