import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  createDb,
  deleteMonitoredAccount,
  listMonitoredAccounts,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "../src/index.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());

async function newPartnerCustomer() {
  const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
  await upsertPartner(handle.db, { partnerId });
  const ref = await upsertPartnerCustomer(handle.db, {
    partnerId,
    partnerCustomerId: "tenant-0001",
    subscriptionPlanName: "Starter",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  if (!ref) throw new Error("setup failed");
  return ref;
}

describe("monitored accounts", () => {
  it("upserts, lists in account order, and deletes idempotently", async () => {
    const ref = await newPartnerCustomer();
    const key = { partnerId: ref.partnerId, partnerCustomerId: ref.partnerCustomerId };
    for (const accountId of ["222222222222", "111111111111"]) {
      const result = await upsertMonitoredAccount(handle.db, {
        ...key,
        accountId,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: {
          roleArn: `arn:aws:iam::${accountId}:role/Auditor`,
          externalId: "ext-1",
        },
      });
      expect(result).toMatchObject({ kind: "stored", record: { customerId: ref.customerId } });
    }
    const listed = await listMonitoredAccounts(handle.db, key);
    expect(listed?.map((r) => r.accountId)).toEqual(["111111111111", "222222222222"]);

    const first = await deleteMonitoredAccount(handle.db, { ...key, accountId: "111111111111" });
    expect(first).toEqual({
      ...key,
      customerId: ref.customerId,
      provider: "aws",
      accountId: "111111111111",
    });
    const again = await deleteMonitoredAccount(handle.db, { ...key, accountId: "111111111111" });
    expect(again).toEqual({ ...key, customerId: ref.customerId, accountId: "111111111111" });
    expect((await listMonitoredAccounts(handle.db, key))?.length).toBe(1);
  });

  it("answers undefined for an unknown partner customer", async () => {
    const ref = await newPartnerCustomer();
    const key = { partnerId: ref.partnerId, partnerCustomerId: "nobody-here" };
    expect(await listMonitoredAccounts(handle.db, key)).toBeUndefined();
    expect(
      await deleteMonitoredAccount(handle.db, { ...key, accountId: "111111111111" }),
    ).toBeUndefined();
    const upserted = await upsertMonitoredAccount(handle.db, {
      ...key,
      accountId: "111111111111",
      provider: "aws",
      auditorAuthMethod: "cvs",
    });
    expect(upserted).toEqual({ kind: "unknown-customer" });
  });

  it("lists an existing partner customer with no accounts as empty", async () => {
    const ref = await newPartnerCustomer();
    expect(await listMonitoredAccounts(handle.db, ref)).toEqual([]);
  });
});
