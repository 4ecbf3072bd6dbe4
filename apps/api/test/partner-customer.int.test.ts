import { PartnerCustomerRef } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const body = (
  partnerId: string,
  partnerCustomerId: string,
  extra: Record<string, unknown> = {},
) => ({
  partnerId,
  partnerCustomerId,
  subscriptionPlanName: "Starter",
  deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  ...extra,
});

describe("PUT /partner/{partnerId}/customer/{partnerCustomerId}", () => {
  it("assigns a customerId once and keeps it across updates", async () => {
    const partner = await h.newPartner();
    const path = `/partner/${partner.partnerId}/customer/acme.prod-01`;
    const first = await h.call("PUT", path, {
      key: partner.key,
      body: body(partner.partnerId, "acme.prod-01"),
    });
    expect(first.status).toBe(200);
    const ref = PartnerCustomerRef.parse(first.json);
    expect(ref.customerId).toMatch(new RegExp(`^${partner.partnerId}-\\d{12}$`));
    const second = await h.call("PUT", path, {
      key: partner.key,
      body: body(partner.partnerId, "acme.prod-01", {
        subscriptionPlanName: "Enterprise",
        featureFlags: { hiveEnabled: true },
      }),
    });
    expect(second.json).toEqual(ref);
  });

  it("gives concurrent first PUTs of one partner customer a single customerId", async () => {
    const partner = await h.newPartner();
    const id = "f3a1c2d4-0000-4000-8000-123456789abc";
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        h.call("PUT", `/partner/${partner.partnerId}/customer/${id}`, {
          key: partner.key,
          body: body(partner.partnerId, id),
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(results.map((r) => r.json.customerId)).size).toBe(1);
  });

  it("answers 404 when the partner is not configured", async () => {
    const partner = await h.newPartner({ configure: false });
    const put = await h.call("PUT", `/partner/${partner.partnerId}/customer/tenant-01`, {
      key: partner.key,
      body: body(partner.partnerId, "tenant-01"),
    });
    expect(put.status).toBe(404);
    expect(put.json.message).toContain(partner.partnerId);
  });

  it.each([
    ["path", "tenan", {}, "partnerCustomerId"],
    ["path", "x".repeat(65), {}, "partnerCustomerId"],
    ["path", "tenant/../x", {}, undefined],
    ["path", "bad%20space", {}, "partnerCustomerId"],
    ["body", "tenant-02", { subscriptionPlanName: "Gold" }, "subscriptionPlanName"],
    ["body", "tenant-02", { deliveryDestinations: [] }, "deliveryDestinations"],
    [
      "body",
      "tenant-02",
      { deliveryDestinations: [{ methodName: "DeliverToS3" }] },
      "deliveryDestinations.0.methodName",
    ],
    [
      "body",
      "tenant-02",
      {
        deliveryDestinations: [
          { methodName: "DeliverToPartner" },
          { methodName: "DeliverToPartner" },
        ],
      },
      "deliveryDestinations",
    ],
    [
      "body",
      "tenant-02",
      { featureFlags: { latestReportEnabled: "yes" } },
      "featureFlags.latestReportEnabled",
    ],
    ["body", "tenant-02", { featureFlags: { turbo: true } }, "featureFlags.turbo"],
    ["body", "tenant-02", { partnerCustomerId: "tenant-03" }, "partnerCustomerId"],
  ])(
    "rejects a bad %s value (%s) naming the field",
    async (_where, partnerCustomerId, extra, field) => {
      const partner = await h.newPartner();
      const put = await h.call(
        "PUT",
        `/partner/${partner.partnerId}/customer/${partnerCustomerId}`,
        {
          key: partner.key,
          body: body(partner.partnerId, partnerCustomerId, extra),
        },
      );
      expect([400, 404]).toContain(put.status);
      if (field) {
        expect(put.status).toBe(400);
        expect(put.json.issues).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: field })]),
        );
      }
      const list = await h.call("GET", `/partner/${partner.partnerId}/customer/tenant-02/account`, {
        key: partner.key,
      });
      expect(list.status).toBe(404);
    },
  );
});
