import { PartnerConfig, PartnerRef } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { createHarness } from "./harness.ts";

const h = await createHarness();

describe("PUT /partner/{partnerId} and GET /partner/{partnerId}", () => {
  it("stores the configuration and returns it", async () => {
    const { partnerId, key } = await h.newPartner({ configure: false });
    const body = {
      partnerId,
      configs: { oemIntegrationEnabled: false },
      awsEncryptionKeyId:
        "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      deliveryDestinations: { DeliverToS3: { bucketName: "partner-secure-inbox" } },
    };
    const put = await h.call("PUT", `/partner/${partnerId}`, { key, body });
    expect(put.status).toBe(200);
    expect(PartnerRef.parse(put.json)).toEqual({ partnerId });

    const get = await h.call("GET", `/partner/${partnerId}`, { key });
    expect(get.status).toBe(200);
    expect(PartnerConfig.parse(get.json)).toEqual(body);
  });

  it("is an idempotent replacement: a second PUT clears what it omits", async () => {
    const { partnerId, key } = await h.newPartner({ oem: true });
    const full = { partnerId, configs: { oemIntegrationEnabled: true } };
    expect((await h.call("PUT", `/partner/${partnerId}`, { key, body: full })).status).toBe(200);
    expect((await h.call("PUT", `/partner/${partnerId}`, { key, body: full })).status).toBe(200);
    expect((await h.call("GET", `/partner/${partnerId}`, { key })).json.configs).toEqual(
      full.configs,
    );
    await h.call("PUT", `/partner/${partnerId}`, { key, body: { partnerId } });
    expect((await h.call("GET", `/partner/${partnerId}`, { key })).json).toEqual({
      partnerId,
      configs: {},
      deliveryDestinations: {},
    });
  });

  it("answers 404 for a partner that has a key but no configuration yet", async () => {
    const { partnerId, key } = await h.newPartner({ configure: false });
    const get = await h.call("GET", `/partner/${partnerId}`, { key });
    expect(get.status).toBe(404);
    expect(get.json.message).toContain(partnerId);
  });

  it.each([
    [
      "a body partnerId different from the path",
      (p: string) => ({ partnerId: "P000001" === p ? "P000002" : "P000001" }),
      "partnerId",
    ],
    [
      "an unknown configs key",
      (p: string) => ({ partnerId: p, configs: { colour: "blue" } }),
      "configs.colour",
    ],
    ["an unknown top-level field", (p: string) => ({ partnerId: p, extra: 1 }), "extra"],
    [
      "DeliverToS3 without awsEncryptionKeyId",
      (p: string) => ({
        partnerId: p,
        deliveryDestinations: { DeliverToS3: { bucketName: "inbox-bucket" } },
      }),
      "awsEncryptionKeyId",
    ],
    [
      "an unsupported delivery method",
      (p: string) => ({ partnerId: p, deliveryDestinations: { DeliverToEmail: { to: "x" } } }),
      "deliveryDestinations.DeliverToEmail",
    ],
    [
      "latestReportEnabled on DeliverToS3",
      (p: string) => ({
        partnerId: p,
        awsEncryptionKeyId:
          "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        deliveryDestinations: {
          DeliverToS3: { bucketName: "inbox-bucket", latestReportEnabled: true },
        },
      }),
      "deliveryDestinations.DeliverToS3.latestReportEnabled",
    ],
    [
      "an invalid bucket name",
      (p: string) => ({
        partnerId: p,
        awsEncryptionKeyId:
          "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        deliveryDestinations: { DeliverToS3: { bucketName: "Bad_Bucket" } },
      }),
      "deliveryDestinations.DeliverToS3.bucketName",
    ],
    [
      "a key ID that is not a KMS ARN",
      (p: string) => ({ partnerId: p, awsEncryptionKeyId: "alias/x" }),
      "awsEncryptionKeyId",
    ],
    ["a missing partnerId", () => ({}), "partnerId"],
  ])("rejects %s with 400 naming the field, and writes nothing", async (_name, makeBody, field) => {
    const { partnerId, key } = await h.newPartner();
    const before = await h.call("GET", `/partner/${partnerId}`, { key });
    const put = await h.call("PUT", `/partner/${partnerId}`, { key, body: makeBody(partnerId) });
    expect(put.status).toBe(400);
    expect(put.json.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: field })]),
    );
    expect(typeof put.json.message).toBe("string");
    expect((await h.call("GET", `/partner/${partnerId}`, { key })).json).toEqual(before.json);
  });

  it("rejects a malformed path partnerId with 400", async () => {
    const put = await h.admin("PUT", "/partner/p123456", { partnerId: "p123456" });
    expect(put.status).toBe(400);
    expect(put.json.issues).toEqual([expect.objectContaining({ path: "partnerId" })]);
  });
});
