import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  assignReportMinute,
  createDb,
  finishExecution,
  insertExecution,
  issueDeliveryVerification,
  markDeliveryProven,
  startExecution,
} from "../src/index.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());
const noJob = async () => {};

describe("report minutes", () => {
  const customerId = `C${randomInt(100_000, 1_000_000)}`;
  async function execution(suffix: string) {
    const executionId = `ondemand-${customerId}-123456789012-2026-01-01_${suffix}`;
    await insertExecution(
      handle.db,
      {
        execution: {
          executionId,
          kind: "ondemand",
          customerId,
          accountId: "123456789012",
          provider: "aws",
          authMethod: "config",
        },
      },
      noJob,
    );
    await startExecution(handle.db, executionId);
    return executionId;
  }
  const end = (executionId: string) =>
    finishExecution(handle.db, executionId, { status: "succeeded", reportKeys: [], warnings: [] });

  it("give each analysis of an account its own minute, the next free one, and keep it for retries", async () => {
    const at = (text: string) => new Date(`2026-01-31T${text}Z`);
    const first = await execution("AAA1");
    expect(await assignReportMinute(handle.db, first, at("23:58:10.250"))).toEqual(at("23:58:00"));
    // A retry of the same execution keeps its minute, whatever the time.
    expect(await assignReportMinute(handle.db, first, at("23:59:30"))).toEqual(at("23:58:00"));
    await end(first);
    const second = await execution("AAA2");
    expect(await assignReportMinute(handle.db, second, at("23:58:40"))).toEqual(at("23:59:00"));
    await end(second);
    // Both minutes of the day are held: the next free one is in the next day.
    const third = await execution("AAA3");
    expect(await assignReportMinute(handle.db, third, at("23:58:59"))).toEqual(
      new Date("2026-02-01T00:00:00Z"),
    );
    await end(third);
    // A later analysis in a free minute keeps its own.
    const fourth = await execution("AAA4");
    expect(await assignReportMinute(handle.db, fourth, at("10:00:01"))).toEqual(at("10:00:00"));
  });
});

describe("delivery verifications", () => {
  const destination = () => ({
    ownerId: `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`,
    bucketName: `inbox-${randomInt(1e9)}`,
  });

  it("keep the token of an unchanged destination and its proof", async () => {
    const where = destination();
    const issued = await issueDeliveryVerification(handle.db, where, "token-1");
    expect(issued).toEqual({ bucketName: where.bucketName, token: "token-1" });
    expect(await issueDeliveryVerification(handle.db, where, "token-2")).toEqual(issued);
    expect(await markDeliveryProven(handle.db, where, "token-2")).toBe(false);
    expect(await markDeliveryProven(handle.db, where, "token-1")).toBe(true);
    const proven = await issueDeliveryVerification(handle.db, where, "token-3");
    expect(proven.token).toBe("token-1");
    expect(proven.provenAt).toBeInstanceOf(Date);
  });

  it("issue a new, unproven token when the bucket or its expected owner changes", async () => {
    const where = destination();
    await issueDeliveryVerification(handle.db, where, "token-1");
    expect(await markDeliveryProven(handle.db, where, "token-1")).toBe(true);
    const moved = { ...where, bucketName: `${where.bucketName}-new` };
    expect(await issueDeliveryVerification(handle.db, moved, "token-2")).toEqual({
      bucketName: moved.bucketName,
      token: "token-2",
    });
    // A proof of the old bucket no longer counts.
    expect(await markDeliveryProven(handle.db, where, "token-1")).toBe(false);
    const owned = { ...moved, expectedBucketOwner: "111122223333" };
    const reissued = await issueDeliveryVerification(handle.db, owned, "token-3");
    expect(reissued).toEqual({
      bucketName: owned.bucketName,
      expectedBucketOwner: "111122223333",
      token: "token-3",
    });
  });
});
