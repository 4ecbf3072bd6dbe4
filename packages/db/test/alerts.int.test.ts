import { randomInt, randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  type AlertOwner,
  changesNotYetAlerted,
  createDb,
  insertAlertDelivery,
  listAlertDeliveries,
  listAlertDestinations,
  rawQuery,
  recentAlertAttempts,
  recordAlertAttempt,
  upsertDirectCustomer,
  upsertPartner,
  writeAlertDestinations,
} from "../src/index.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());
const { db } = handle;

const newPartner = async (): Promise<AlertOwner & { kind: "partner" }> => {
  const partnerId = `P${String(randomInt(1_000_000)).padStart(6, "0")}`;
  await upsertPartner(db, { partnerId });
  return { kind: "partner", partnerId };
};
const newCustomer = async (): Promise<AlertOwner & { kind: "direct" }> => {
  const customerId = `C${randomInt(100_000, 1_000_000)}`;
  await upsertDirectCustomer(db, { customerId });
  return { kind: "direct", customerId };
};
const webhook = (name = "team") => ({
  destinationId: randomUUID(),
  name,
  kind: "webhook" as const,
  config: { url: "https://hooks.example.com/a" },
  alertOn: ["iam-admin-gained"],
  position: 0,
  secretEnvelope: { ciphertext: "AAAA" },
});

async function alertOf(destinationId: string, changeIds: string[]) {
  const alertId = randomUUID().replace(/-/g, "");
  await db.transaction(async (tx) => {
    expect(await changesNotYetAlerted(tx, destinationId, changeIds)).toEqual(changeIds);
    await insertAlertDelivery(tx, {
      alertId,
      destinationId,
      executionId: "ondemand-C12345-123456789012-2026-01-31_AB12",
      customerId: "C12345",
      accountId: "123456789012",
      provider: "aws",
      analysisTime: new Date(),
      changeIds,
      changes: [],
    });
  });
  return alertId;
}

describe("alert destinations", () => {
  it("are deleted with their partner or direct customer, with their alerts and attempts", async () => {
    for (const owner of [await newPartner(), await newCustomer()]) {
      const destination = webhook();
      await writeAlertDestinations(db, owner, { keep: [], create: [destination] });
      const alertId = await alertOf(destination.destinationId, ["a".repeat(32)]);
      await recordAlertAttempt(db, {
        alertId,
        destinationId: destination.destinationId,
        outcome: "delivered",
        status: 200,
      });
      const [table, column, id] =
        owner.kind === "partner"
          ? ["partners", "partner_id", owner.partnerId]
          : ["direct_customers", "customer_id", owner.customerId];
      await db.execute(rawQuery(`delete from ${table} where ${column} = $1`, [id]));
      expect(await listAlertDestinations(db, owner)).toEqual([]);
      expect(await listAlertDeliveries(db, destination.destinationId)).toEqual([]);
      expect((await recentAlertAttempts(db, [destination.destinationId], 10)).size).toBe(0);
    }
  });

  it("have names unique per owner regardless of case, and never mix owners", async () => {
    const owner = await newPartner();
    await writeAlertDestinations(db, owner, { keep: [], create: [webhook("Team")] });
    await expect(
      db.transaction((tx) =>
        writeAlertDestinations(tx, owner, { keep: [], create: [webhook("TEAM"), webhook("team")] }),
      ),
    ).rejects.toThrow();
    const other = await newPartner();
    await writeAlertDestinations(db, other, { keep: [], create: [webhook("team")] });
    expect((await listAlertDestinations(db, owner)).map((d) => d.name)).toEqual(["Team"]);
  });

  it("refuse a change alerted twice to one destination, and keep the 10 latest attempts per destination", async () => {
    const owner = await newCustomer();
    const destination = webhook();
    await writeAlertDestinations(db, owner, { keep: [], create: [destination] });
    const alertId = await alertOf(destination.destinationId, ["b".repeat(32), "c".repeat(32)]);
    await db.transaction(async (tx) => {
      expect(
        await changesNotYetAlerted(tx, destination.destinationId, ["c".repeat(32), "d".repeat(32)]),
      ).toEqual(["d".repeat(32)]);
    });
    await expect(alertOf(destination.destinationId, ["b".repeat(32)])).rejects.toThrow();
    for (let i = 0; i < 12; i++)
      await recordAlertAttempt(db, {
        alertId,
        destinationId: destination.destinationId,
        outcome: "retrying",
        status: 500 + i,
      });
    const attempts = (await recentAlertAttempts(db, [destination.destinationId], 10)).get(
      destination.destinationId,
    );
    expect(attempts?.map((a) => a.status)).toEqual([
      511, 510, 509, 508, 507, 506, 505, 504, 503, 502,
    ]);
    expect(attempts?.[0]).toEqual({
      alertId,
      at: expect.stringMatching(/Z$/),
      outcome: "retrying",
      status: 511,
    });
    const [delivery] = await listAlertDeliveries(db, destination.destinationId);
    expect(delivery).toMatchObject({ status: "queued", attempts: 12 });
  });
});
