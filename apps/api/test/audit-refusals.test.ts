import type { Executor } from "@sightline/db";
import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import {
  ALL_REFUSALS_PER_MINUTE,
  REFUSALS_PER_MINUTE,
  RefusalRecorder,
} from "../src/audit-refusals.ts";
import type { AppEnv } from "../src/context.ts";

/** A database that counts the audit appends it is asked for (each runs in a transaction). */
function countingDb() {
  const db = { appends: 0, transaction: async () => void db.appends++ };
  return db;
}

const contextOf = () =>
  ({
    get: (name: string) =>
      name === "apiClient"
        ? { kind: "partner", partnerId: "P000001", keyId: "key_AAAAAAAAAAAAAAAA", keyName: "k" }
        : "req",
    req: { param: () => ({}) },
  }) as unknown as Context<AppEnv>;

const route = { method: "put", path: "/partner/{partnerId}", operationId: "putPartner" };

describe("RefusalRecorder", () => {
  it("writes at most REFUSALS_PER_MINUTE a minute per tenant, then again the next minute", async () => {
    let now = 0;
    const recorder = new RefusalRecorder(() => now);
    const db = countingDb();
    for (let i = 0; i < REFUSALS_PER_MINUTE + 20; i++)
      await recorder.record(db as unknown as Executor, contextOf(), "P123456", route, "x");
    expect(db.appends).toBe(REFUSALS_PER_MINUTE);
    expect(recorder.dropped).toBe(20);
    now += 60_000;
    await recorder.record(db as unknown as Executor, contextOf(), "P123456", route, "x");
    expect(db.appends).toBe(REFUSALS_PER_MINUTE + 1);
  });

  it("bounds all tenants together: paths may name any number of them", async () => {
    const recorder = new RefusalRecorder(() => 0);
    const db = countingDb();
    for (let i = 0; i < ALL_REFUSALS_PER_MINUTE * 2; i++)
      await recorder.record(
        db as unknown as Executor,
        contextOf(),
        `P${String(i).padStart(6, "0")}`,
        route,
        "x",
      );
    expect(db.appends).toBe(ALL_REFUSALS_PER_MINUTE);
  });
});
