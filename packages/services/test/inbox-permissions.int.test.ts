import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createS3Inbox } from "@sightline/aws";
import { type FakeAws, smallAccount, startFakeAws } from "@sightline/aws-fake";
import { createDb } from "@sightline/db";
import { authorize, createAccountModel, parsePolicyDocument } from "@sightline/engine";
import type { WrittenReport } from "@sightline/reports";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deliverReports } from "../src/delivery/deliver-reports.ts";
import { proveDestination } from "../src/delivery/delivery-verification.ts";

/**
 * The inbox bucket policy of deploy/ against what delivery really does: every request the
 * fake S3 saw is allowed by the filled template (AWS's evaluation, by the engine), and every
 * action the template grants is one delivery uses.
 */
const MIB = 1024 * 1024;
const SIGHTLINE_ROLE = "arn:aws:iam::999999999999:role/SightlineService";
const OWNER_ID = "P123456";
const CUSTOMER_ID = "P123456-000000000042";
const bucket = smallAccount.INBOX_BUCKET;
const template = readFileSync(
  new URL("../../../deploy/aws/inbox-bucket-policy.json", import.meta.url),
  "utf8",
);
const filled = JSON.parse(
  template
    .replaceAll("SIGHTLINE_ACCOUNT_ID", "999999999999")
    .replaceAll("SIGHTLINE_ROLE_NAME", "SightlineService")
    .replaceAll("PARTNER_ACCOUNT_ID", smallAccount.ACCOUNT_ID)
    .replaceAll("INBOX_REGION", "us-east-1")
    .replaceAll("INBOX_BUCKET", bucket)
    .replaceAll("INBOX_KEY_ID", smallAccount.INBOX_KEY_ID)
    .replaceAll("CUSTOMER_IDS", `${OWNER_ID}-*`)
    .replaceAll("OWNER_ID", OWNER_ID),
);

/** Sightline's own account (its side of the cross-account grant) and the inbox's. */
const model = createAccountModel([
  {
    accountId: "999999999999",
    authorizationDetails: {
      RoleDetailList: [
        {
          RoleName: "SightlineService",
          RoleId: "AROASIGHTLINE",
          Arn: SIGHTLINE_ROLE,
          Path: "/",
          AssumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] },
          RolePolicyList: [
            {
              PolicyName: "deliver",
              PolicyDocument: {
                Version: "2012-10-17",
                Statement: [{ Effect: "Allow", Action: "s3:*", Resource: "arn:aws:s3:::*/*" }],
              },
            },
          ],
          AttachedManagedPolicies: [],
        },
      ],
      UserDetailList: [],
      GroupDetailList: [],
      Policies: [],
    },
  },
  {
    accountId: smallAccount.ACCOUNT_ID,
    authorizationDetails: {},
    resourcePolicies: { [`arn:aws:s3:::${bucket}`]: filled },
    buckets: [bucket],
  },
]);

/** The IAM action(s) of an S3 call, each on its object. */
function requestsOf(call: {
  operation: string;
  key?: string;
  headers?: Readonly<Record<string, string>>;
}) {
  const key = call.key ?? "";
  // `x-amz-copy-source` is `<bucket>/<key>`, URL-encoded.
  const copySource = decodeURIComponent(call.headers?.["x-amz-copy-source"] ?? "")
    .replace(/^\//, "")
    .slice(bucket.length + 1);
  switch (call.operation) {
    case "PutObject":
    case "CreateMultipartUpload":
    case "UploadPart":
    case "CompleteMultipartUpload":
      return [
        {
          action: "s3:PutObject",
          key,
          encrypted:
            call.operation !== "UploadPart" && call.operation !== "CompleteMultipartUpload",
        },
      ];
    case "CopyObject":
      return [
        { action: "s3:PutObject", key, encrypted: true },
        { action: "s3:GetObject", key: copySource, encrypted: false },
      ];
    case "GetObject":
    case "HeadObject":
      return [{ action: "s3:GetObject", key, encrypted: false }];
    case "DeleteObject":
      return [{ action: "s3:DeleteObject", key, encrypted: false }];
    case "AbortMultipartUpload":
      return [{ action: "s3:AbortMultipartUpload", key, encrypted: false }];
    default:
      throw new Error(`delivery made an S3 call the test does not know: ${call.operation}`);
  }
}

/** A request as S3 sees it: over TLS, with the SSE-KMS headers of a write that sends them. */
function decide(
  action: string,
  key: string,
  encrypted: boolean,
  kmsKey = smallAccount.INBOX_KEY_ARN,
) {
  const context: Record<string, string | boolean> = { "aws:SecureTransport": true };
  if (encrypted) {
    context["s3:x-amz-server-side-encryption"] = "aws:kms";
    context["s3:x-amz-server-side-encryption-aws-kms-key-id"] = kmsKey;
  }
  return authorize(model, {
    principal: SIGHTLINE_ROLE,
    action,
    resource: `arn:aws:s3:::${bucket}/${key}`,
    context,
    missingKeys: "absent",
  }).decision;
}

let fake: FakeAws;
let dir: string;
const database = createDb(inject("databaseUrl"), { maxConnections: 2 });
beforeAll(async () => {
  fake = await startFakeAws(smallAccount.model);
  dir = await mkdtemp(path.join(tmpdir(), "sightline-permissions-"));
});
afterAll(async () => {
  await fake.close();
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

async function report(type: WrittenReport["type"], format: "csv" | "parquet", bytes: number) {
  const body = randomBytes(bytes);
  const file = path.join(dir, `${type}.${format}`);
  await writeFile(file, body);
  const { createHash } = await import("node:crypto");
  const sha256 = createHash("sha256").update(body).digest("hex");
  return { type, rows: 1, files: [{ format, path: file, bytes, sha256, rows: 1 }] };
}

describe("deploy/aws/inbox-bucket-policy.json", () => {
  it("is a valid policy once filled", () => {
    expect(parsePolicyDocument(filled, "inbox-bucket-policy").issues).toEqual([]);
  });

  it("allows every request a delivery makes, and grants no action a delivery does not use", async () => {
    const destination = { ownerId: OWNER_ID, bucketName: bucket };
    const inbox = {
      ...createS3Inbox({
        bucket,
        kmsKeyId: smallAccount.INBOX_KEY_ARN,
        credentials: fake.serviceCredentials,
        clientOptions: { ...fake.clientOptions, maxAttempts: 1 },
        multipartThresholdBytes: 6 * MIB,
        partSizeBytes: 5 * MIB,
      }),
      location: `s3://${bucket}`,
    };
    fake.putObjectAsOwner(bucket, `sightline-delivery-verification/${OWNER_ID}.txt`, "wrong");
    const start = fake.calls.length;
    await expect(
      proveDestination(database.db, destination, inbox, { allowUnproven: false }),
    ).rejects.toMatchObject({ code: "INBOX_UNPROVEN" });
    const reports = [
      await report("principals", "csv", 11 * MIB + 5),
      await report("resources", "parquet", 1000),
    ];
    const target = {
      provider: "aws" as const,
      customerId: CUSTOMER_ID,
      accountId: smallAccount.ACCOUNT_ID,
      analysisTime: new Date("2026-11-26T10:00:00Z"),
      latest: true,
      hive: true,
      formats: ["csv", "parquet"] as const,
    };
    await deliverReports({
      inbox,
      executionId: "e1",
      target: { ...target, formats: [...target.formats] },
      reports,
      warnings: [],
    });
    // A multipart upload that fails is aborted.
    fake.inject({ operation: "CompleteMultipartUpload", kind: "access-denied", times: 1 });
    await expect(
      deliverReports({
        inbox,
        executionId: "e2",
        target: { ...target, formats: [...target.formats] },
        reports,
        warnings: [],
      }),
    ).rejects.toMatchObject({ code: "INBOX_DENIED" });
    inbox.destroy();

    const calls = fake.calls.slice(start).filter((call) => call.resource === bucket);
    const used = new Set<string>();
    for (const call of calls)
      for (const { action, key, encrypted } of requestsOf(call)) {
        used.add(action);
        expect(decide(action, key, encrypted), `${call.operation} ${key}`).toBe("allowed");
      }
    const granted = new Set<string>(
      filled.Statement.filter((s: { Effect: string }) => s.Effect === "Allow").flatMap(
        (s: { Action: string | string[] }) => [s.Action].flat(),
      ),
    );
    expect([...used].sort()).toEqual([...granted].sort());
  });

  it("keeps Sightline to the owner's customer prefixes, its proof key and the latest manifests", () => {
    const other = "customers/P654321-000000000001/reports/aws/210987654321";
    expect(
      decide("s3:PutObject", `${other}/2026/11/principals.2026-11-26-1000.csv`, true),
    ).not.toBe("allowed");
    expect(decide("s3:GetObject", "sightline-delivery-verification/P654321.txt", false)).not.toBe(
      "allowed",
    );
    const own = `customers/${CUSTOMER_ID}/reports/aws/210987654321`;
    expect(decide("s3:DeleteObject", `${own}/sightline/latest/manifest.latest.json`, false)).toBe(
      "allowed",
    );
    expect(decide("s3:DeleteObject", `${own}/latest/principals.latest.csv`, false)).not.toBe(
      "allowed",
    );
    expect(
      decide("s3:DeleteObject", `${own}/2026/11/manifest.2026-11-26-1000.json`, false),
    ).not.toBe("allowed");
    // A write naming another KMS key, or another encryption, is refused; one naming none (the
    // parts of a multipart upload) takes the upload's or the bucket's default key.
    const otherKey = smallAccount.INBOX_KEY_ARN.replace(
      smallAccount.INBOX_KEY_ID,
      "0000abcd-12ab-34cd-56ef-1234567890ab",
    );
    expect(decide("s3:PutObject", `${own}/2026/11/x.csv`, true, otherKey)).toBe("explicit-deny");
    expect(decide("s3:PutObject", `${own}/2026/11/x.csv`, false)).toBe("allowed");
    const aes = authorize(model, {
      principal: SIGHTLINE_ROLE,
      action: "s3:PutObject",
      resource: `arn:aws:s3:::${bucket}/${own}/2026/11/x.csv`,
      context: { "aws:SecureTransport": true, "s3:x-amz-server-side-encryption": "AES256" },
      missingKeys: "absent",
    });
    expect(aes.decision).toBe("explicit-deny");
  });
});
