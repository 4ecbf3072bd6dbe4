import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  countOnDemandExecutions,
  createDb,
  deleteEventSnapshotsBefore,
  deleteExpiredCredentials,
  deleteSnapshotsBefore,
  finishExecution,
  getExecutionCredential,
  getSnapshotOfExecution,
  insertExecution,
  insertSnapshot,
  latestSnapshot,
  type NewExecution,
  startExecution,
} from "../src/index.ts";
import { analysisResults } from "../src/schema-results.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());

const execution = (customerId: string, suffix: string): NewExecution => ({
  executionId: `ondemand-${customerId}-123456789012-2026-01-01_${suffix}`,
  kind: "ondemand",
  customerId,
  accountId: "123456789012",
  provider: "aws",
  authMethod: "config",
});
const newCustomerId = () => `C${randomInt(100_000, 1_000_000)}`;
const noJob = async () => {};

describe("executions", () => {
  it("count on-demand analyses toward the daily limit, not imported snapshots", async () => {
    const customerId = newCustomerId();
    const key = { customerId, accountId: "123456789012" };
    const since = new Date(Date.now() - 60_000);
    for (const [suffix, authMethod] of [
      ["IMP1", "import"],
      ["CFG1", "config"],
    ] as const) {
      const row = { ...execution(customerId, suffix), authMethod };
      await insertExecution(handle.db, { execution: row }, noJob);
      await finishExecution(handle.db, row.executionId, {
        status: "succeeded",
        reportKeys: [],
        warnings: [],
      });
    }
    expect(await countOnDemandExecutions(handle.db, key, since)).toBe(1);
  });

  it("allow one queued or running execution per account, and any number of ended ones", async () => {
    const customerId = newCustomerId();
    expect(
      await insertExecution(handle.db, { execution: execution(customerId, "AAAA") }, noJob),
    ).toEqual({
      kind: "inserted",
    });
    expect(
      await insertExecution(handle.db, { execution: execution(customerId, "BBBB") }, noJob),
    ).toEqual({
      kind: "active",
      executionId: execution(customerId, "AAAA").executionId,
    });
    await startExecution(handle.db, execution(customerId, "AAAA").executionId);
    await finishExecution(handle.db, execution(customerId, "AAAA").executionId, {
      status: "failed",
      failure: { code: "THROTTLED", message: "m" },
      warnings: [],
    });
    expect(
      await insertExecution(handle.db, { execution: execution(customerId, "BBBB") }, noJob),
    ).toEqual({
      kind: "inserted",
    });
  });

  it("write nothing when the job cannot be enqueued", async () => {
    const customerId = newCustomerId();
    const failing = async () => {
      throw new Error("queue down");
    };
    await expect(
      insertExecution(handle.db, { execution: execution(customerId, "CCCC") }, failing),
    ).rejects.toThrow("queue down");
    expect(
      await insertExecution(handle.db, { execution: execution(customerId, "DDDD") }, noJob),
    ).toEqual({
      kind: "inserted",
    });
  });

  it("delete credentials past their expiry, and keep the others", async () => {
    const customerId = newCustomerId();
    const sealed = (expiresAt: Date) => ({
      keySource: "local" as const,
      masterKeyId: "local",
      wrappedKey: Buffer.from("w"),
      iv: Buffer.from("i"),
      ciphertext: Buffer.from("c"),
      authTag: Buffer.from("t"),
      expiresAt,
    });
    const now = new Date("2026-06-01T12:00:00Z");
    const past = { ...execution(customerId, "EEEE"), authMethod: "credential" as const };
    await insertExecution(
      handle.db,
      { execution: past, credential: sealed(new Date(now.getTime() - 1000)) },
      noJob,
    );
    await finishExecution(handle.db, past.executionId, {
      status: "succeeded",
      reportKeys: [],
      warnings: [],
    });
    const future = { ...execution(customerId, "FFFF"), authMethod: "credential" as const };
    await insertExecution(
      handle.db,
      { execution: future, credential: sealed(new Date(now.getTime() + 60_000)) },
      noJob,
    );
    expect(await getExecutionCredential(handle.db, past.executionId)).toBeUndefined(); // finishing removed it
    await deleteExpiredCredentials(handle.db, now);
    expect(await getExecutionCredential(handle.db, future.executionId)).toBeDefined();
    expect(
      await deleteExpiredCredentials(handle.db, new Date(now.getTime() + 120_000)),
    ).toBeGreaterThanOrEqual(1);
    expect(await getExecutionCredential(handle.db, future.executionId)).toBeUndefined();
  });
});

describe("snapshots", () => {
  /** A succeeded execution with its snapshot (its suffix as data), collected on that day. */
  const storeSnapshot = async (e: NewExecution, day: number, suffix: string) => {
    await insertExecution(handle.db, { execution: e }, noJob);
    await finishExecution(handle.db, e.executionId, {
      status: "succeeded",
      reportKeys: [],
      warnings: [],
    });
    await insertSnapshot(handle.db, {
      executionId: e.executionId,
      customerId: e.customerId,
      accountId: e.accountId,
      collectedAt: new Date(Date.UTC(2020, 0, day)),
      data: Buffer.from(suffix),
    });
    return e.executionId;
  };

  it("are deleted after the retention, except each account's newest", async () => {
    const customerId = newCustomerId();
    const ids = ["GGGG", "HHHH", "IIII"];
    for (const [i, suffix] of ids.entries())
      await storeSnapshot(execution(customerId, suffix), 1 + i, suffix);
    await deleteSnapshotsBefore(handle.db, new Date(Date.UTC(2021, 0, 1)));
    const newest = await latestSnapshot(handle.db, { customerId, accountId: "123456789012" });
    expect(newest?.data.toString()).toBe("IIII");
    for (const suffix of ["GGGG", "HHHH"])
      expect(
        await getSnapshotOfExecution(handle.db, execution(customerId, suffix).executionId),
      ).toBeUndefined();
  });

  it("of event steps are deleted sooner, except each account's newest and those of stored results", async () => {
    const customerId = newCustomerId();
    const accountId = "123456789012";
    const store = (kind: "daily" | "event", suffix: string, day: number) =>
      storeSnapshot(
        {
          ...execution(customerId, suffix),
          kind,
          executionId: `${kind}-${customerId}-${accountId}-2020-01-0${day}_${suffix}`,
        },
        day,
        suffix,
      );
    const daily = await store("daily", "DAY1", 1);
    const superseded = await store("event", "EVT1", 2);
    const compared = await store("event", "EVT2", 3);
    const recent = await store("event", "EVT3", 5);
    const newest = await store("event", "EVT4", 6);
    await handle.db.insert(analysisResults).values({
      executionId: compared,
      customerId,
      accountId,
      provider: "aws",
      analysisTime: new Date(Date.UTC(2020, 0, 3)),
      resultsVersion: "test",
      principals: 0,
      resources: 0,
    });
    // Everything is older than the cut but the step of the 5th: only that cut applies here.
    const deleted = await deleteEventSnapshotsBefore(handle.db, new Date(Date.UTC(2020, 0, 4)));
    const kept = async (id: string) => (await getSnapshotOfExecution(handle.db, id)) !== undefined;
    expect(deleted).toBe(1);
    expect(await kept(superseded)).toBe(false);
    for (const id of [daily, compared, recent, newest]) expect(await kept(id), id).toBe(true);
    // The newest is kept however old it is.
    expect(await deleteEventSnapshotsBefore(handle.db, new Date(Date.UTC(2021, 0, 1)))).toBe(1);
    expect(await kept(recent)).toBe(false);
    for (const id of [daily, compared, newest]) expect(await kept(id), id).toBe(true);
  });
});
