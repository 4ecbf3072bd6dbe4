import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  createDb,
  getPartnerCustomer,
  upsertPartner,
  upsertPartnerCustomer,
} from "../src/index.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());
const newPartnerId = () => `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;

describe("upsertPartnerCustomer", () => {
  it("returns undefined when the partner does not exist", async () => {
    const result = await upsertPartnerCustomer(handle.db, {
      partnerId: newPartnerId(),
      partnerCustomerId: "missing-partner",
      subscriptionPlanName: "Starter",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    });
    expect(result).toBeUndefined();
  });

  it("assigns one customerId to concurrent first PUTs and keeps it on update", async () => {
    const partnerId = newPartnerId();
    await upsertPartner(handle.db, { partnerId });
    const input = {
      partnerId,
      partnerCustomerId: "acme-prod-01",
      subscriptionPlanName: "Team" as const,
      deliveryDestinations: [{ methodName: "DeliverToPartner" as const }],
    };
    const results = await Promise.all(
      Array.from({ length: 16 }, () => upsertPartnerCustomer(handle.db, input)),
    );
    const ids = new Set(results.map((r) => r?.customerId));
    expect(ids.size).toBe(1);
    const [customerId] = ids;
    expect(customerId).toMatch(new RegExp(`^${partnerId}-\\d{12}$`));

    const updated = await upsertPartnerCustomer(handle.db, {
      ...input,
      subscriptionPlanName: "Enterprise",
    });
    expect(updated?.customerId).toBe(customerId);
    const stored = await getPartnerCustomer(handle.db, input);
    expect(stored?.subscriptionPlanName).toBe("Enterprise");
  });

  it("never reuses a number across partner customers", async () => {
    const partnerId = newPartnerId();
    await upsertPartner(handle.db, { partnerId });
    const ids = [];
    for (const suffix of ["aaaaaa", "bbbbbb", "cccccc"]) {
      const ref = await upsertPartnerCustomer(handle.db, {
        partnerId,
        partnerCustomerId: suffix,
        subscriptionPlanName: "Starter",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      });
      ids.push(ref?.customerId);
    }
    expect(new Set(ids).size).toBe(3);
  });
});
