import { createDb, rawQuery } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import { afterAll, describe, expect, inject, it } from "vitest";
import { awsAccount, createHarness } from "./harness.ts";

// A database that holds a lock, or is gone, answers 503 with Retry-After within the configured
// timeout — never a 500, never a wait without end — and the log never carries the query's
// parameters (here an external ID and a role ARN).

const lines: string[] = [];
const h = await createHarness({
  logger: createLogger({ level: "debug", write: (line) => lines.push(line) }),
  lockTimeoutSeconds: 1,
  statementTimeoutSeconds: 3,
});
const holder = createDb(inject("databaseUrl"), { maxConnections: 1 });
afterAll(() => holder.close());

/** Holds `lock table …` in a transaction until `release` is called. */
async function holdLock(table: string): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const transaction = holder.db.transaction(async (tx) => {
    await tx.execute(rawQuery(`lock table ${table} in access exclusive mode`, []));
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await transaction;
  };
}

describe("database faults", () => {
  it("answers 503 with Retry-After while a lock is held past lock_timeout, and logs no parameters", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const secretExternalId = "locked-external-id-90210";
    const roleArn = "arn:aws:iam::123456789012:role/LockedAuditor";
    const body = {
      ...awsAccount("123456789012", pc.partnerId, pc.partnerCustomerId),
      auditorAuthConfig: { roleArn, externalId: secretExternalId },
    };
    const url = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/123456789012`;
    const from = lines.length;
    const release = await holdLock("monitored_accounts");
    let put: Awaited<ReturnType<typeof h.call>>;
    const started = performance.now();
    try {
      put = await h.call("PUT", url, { key: pc.key, body });
    } finally {
      await release();
    }
    const seconds = (performance.now() - started) / 1000;
    expect(put.status).toBe(503);
    expect(put.headers.get("retry-after")).toBe("5");
    expect(put.json).toMatchObject({ code: "UNAVAILABLE" });
    expect(seconds).toBeLessThan(4);
    const logged = lines.slice(from).join("\n");
    expect(logged).toContain("database unavailable");
    for (const secret of [secretExternalId, roleArn, "params"])
      expect(logged).not.toContain(secret);

    // The lock gone, the same request succeeds without a restart.
    expect((await h.call("PUT", url, { key: pc.key, body })).status).toBe(200);
  });
});
