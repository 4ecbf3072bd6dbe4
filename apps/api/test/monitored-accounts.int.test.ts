import {
  DeletedMonitoredAccount,
  MonitoredAccountList,
  MonitoredAccountRecord,
  PLAN_LIMITS,
} from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { awsAccount, createHarness } from "./harness.ts";

const h = await createHarness();

describe("monitored accounts (endpoints 9, 10, 11)", () => {
  it("configures, lists and deletes accounts", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const base = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`;
    const put = await h.call("PUT", `${base}/210987654321`, {
      key: pc.key,
      body: awsAccount("210987654321", pc.partnerId, pc.partnerCustomerId),
    });
    expect(put.status).toBe(200);
    expect(MonitoredAccountRecord.strict().parse(put.json)).toEqual({
      partnerId: pc.partnerId,
      partnerCustomerId: pc.partnerCustomerId,
      customerId: pc.customerId,
      provider: "aws",
      accountId: "210987654321",
    });
    const azureId = "0b1f6471-1bf0-4dda-aec3-111122223333";
    const azure = await h.call("PUT", `${base}/${azureId}`, {
      key: pc.key,
      body: {
        partnerId: pc.partnerId,
        partnerCustomerId: pc.partnerCustomerId,
        accountId: azureId,
        provider: "azure",
        auditorAuthMethod: "config",
        auditorAuthConfig: { tenantId: azureId, clientId: azureId },
      },
    });
    expect(azure.status).toBe(200);

    const list = await h.call("GET", base, { key: pc.key });
    expect(list.status).toBe(200);
    expect(MonitoredAccountList.parse(list.json).map((r) => r.accountId)).toEqual([
      azureId,
      "210987654321",
    ]);
    expect(JSON.stringify(list.json)).not.toContain("sightline-ext-");

    const del = await h.call("DELETE", `${base}/210987654321`, { key: pc.key });
    expect(del.status).toBe(200);
    expect(DeletedMonitoredAccount.parse(del.json)).toEqual({ ...put.json });
    const again = await h.call("DELETE", `${base}/210987654321`, { key: pc.key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({
      partnerId: pc.partnerId,
      partnerCustomerId: pc.partnerCustomerId,
      customerId: pc.customerId,
      accountId: "210987654321",
    });
    expect((await h.call("GET", base, { key: pc.key })).json).toHaveLength(1);
  });

  it("refuses every unknown key of auditorAuthConfig, __proto__ and constructor included", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const url = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/210987654321`;
    const body = JSON.stringify(awsAccount("210987654321", pc.partnerId, pc.partnerCustomerId));
    for (const key of ["__proto__", "constructor", "prototype"]) {
      // Written as text: JSON.parse makes `__proto__` an own key, as a client's body would.
      const hostile = body.replace(
        '"auditorAuthConfig":{',
        `"auditorAuthConfig":{"${key}":{"x":1},`,
      );
      expect(hostile).toContain(`"${key}"`);
      const put = await h.call("PUT", url, { key: pc.key, body: hostile });
      expect(put.status, key).toBe(400);
      expect(put.json.message, key).toContain(`auditorAuthConfig.${key}`);
    }
    const list = await h.call("GET", url.replace("/210987654321", ""), { key: pc.key });
    expect(list.json).toEqual([]);
  });

  it("is idempotent on PUT", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const path = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/123456789012`;
    const body = awsAccount("123456789012", pc.partnerId, pc.partnerCustomerId);
    const first = await h.call("PUT", path, { key: pc.key, body });
    const second = await h.call("PUT", path, { key: pc.key, body });
    expect(second).toMatchObject({ status: 200, json: first.json });
    const list = await h.call(
      "GET",
      `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`,
      { key: pc.key },
    );
    expect(list.json).toHaveLength(1);
  });

  it("needs the partner customer first: 404 on PUT and list, 403 on DELETE", async () => {
    const partner = await h.newPartner();
    const base = `/partner/${partner.partnerId}/customer/unknown-tenant/account`;
    const put = await h.call("PUT", `${base}/123456789012`, {
      key: partner.key,
      body: awsAccount("123456789012", partner.partnerId, "unknown-tenant"),
    });
    expect(put.status).toBe(404);
    expect((await h.call("GET", base, { key: partner.key })).status).toBe(404);
    const del = await h.call("DELETE", `${base}/123456789012`, { key: partner.key });
    expect(del.status).toBe(403);
    expect(del.json.message).toBe(
      `Caller is not authorized to delete monitoring of account 123456789012 of partner ${partner.partnerId} customer unknown-tenant`,
    );
  });

  it("accepts cvs only for partners the operator made OEM integrations (403 otherwise)", async () => {
    for (const oem of [false, true]) {
      const pc = await h.newPartnerCustomer(await h.newPartner({ oem }));
      const put = await h.call(
        "PUT",
        `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/123456789012`,
        {
          key: pc.key,
          body: {
            partnerId: pc.partnerId,
            partnerCustomerId: pc.partnerCustomerId,
            accountId: "123456789012",
            provider: "aws-us-gov",
            auditorAuthMethod: "cvs",
          },
        },
      );
      expect(put.status).toBe(oem ? 200 : 403);
      if (!oem)
        expect(put.json.message).toBe(
          `auditorAuthMethod 'cvs' (credential vending) is for OEM integrations, and only the operator makes partner ${pc.partnerId} an OEM integration (PUT /admin/partners/${pc.partnerId}/oem-integration); ask the operator`,
        );
    }
  });

  const roleArn = "arn:aws:iam::123456789012:role/SightlineAuditor";
  it.each([
    ["an unknown provider", { provider: "gcp" }, "provider"],
    ["an unknown auth method", { auditorAuthMethod: "password" }, "auditorAuthMethod"],
    ["config without auditorAuthConfig", { auditorAuthConfig: undefined }, "auditorAuthConfig"],
    ["cvs with auditorAuthConfig", { auditorAuthMethod: "cvs" }, "auditorAuthConfig"],
    [
      "a role ARN of another partition",
      { auditorAuthConfig: { roleArn: roleArn.replace("aws", "aws-us-gov"), externalId: "abc" } },
      "auditorAuthConfig.roleArn",
    ],
    [
      "a role ARN of another account",
      {
        auditorAuthConfig: {
          roleArn: roleArn.replace("123456789012", "999999999999"),
          externalId: "abc",
        },
      },
      "auditorAuthConfig.roleArn",
    ],
    [
      "a user ARN",
      { auditorAuthConfig: { roleArn: "arn:aws:iam::123456789012:user/bob", externalId: "abc" } },
      "auditorAuthConfig.roleArn",
    ],
    [
      "a one-character externalId",
      { auditorAuthConfig: { roleArn, externalId: "a" } },
      "auditorAuthConfig.externalId",
    ],
    [
      "an externalId of 1225 characters",
      { auditorAuthConfig: { roleArn, externalId: "a".repeat(1225) } },
      "auditorAuthConfig.externalId",
    ],
    [
      "an externalId with a space",
      { auditorAuthConfig: { roleArn, externalId: "ab cd" } },
      "auditorAuthConfig.externalId",
    ],
    ["a missing externalId", { auditorAuthConfig: { roleArn } }, "auditorAuthConfig.externalId"],
    ["an Azure provider with a 12-digit account", { provider: "azure" }, "accountId"],
    ["a body accountId different from the path", { accountId: "123456789013" }, "accountId"],
  ])("rejects %s with 400 naming %s", async (_name, change, field) => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const base = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`;
    const body = { ...awsAccount("123456789012", pc.partnerId, pc.partnerCustomerId), ...change };
    const put = await h.call("PUT", `${base}/123456789012`, { key: pc.key, body });
    expect(put.status).toBe(400);
    expect(put.json.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: field })]),
    );
    expect((await h.call("GET", base, { key: pc.key })).json).toEqual([]);
  });

  it.each(["12345678901", "1234567890123", "abc"])(
    "rejects the path accountId %s",
    async (accountId) => {
      const pc = await h.newPartnerCustomer(await h.newPartner());
      const res = await h.call(
        "DELETE",
        `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${accountId}`,
        {
          key: pc.key,
        },
      );
      expect(res.status).toBe(400);
      expect(res.json.issues).toEqual([expect.objectContaining({ path: "accountId" })]);
    },
  );
});

describe("plan limits", () => {
  it("refuses a new account past the plan's limit with 429, and still replaces existing ones", async () => {
    const partner = await h.newPartner();
    const tenant = `starter-${Date.now()}`;
    const put = await h.call("PUT", `/partner/${partner.partnerId}/customer/${tenant}`, {
      key: partner.key,
      body: {
        partnerId: partner.partnerId,
        partnerCustomerId: tenant,
        subscriptionPlanName: "Starter",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      },
    });
    expect(put.status).toBe(200);
    const base = `/partner/${partner.partnerId}/customer/${tenant}/account`;
    const account = (n: number) => String(100_000_000_000 + n);
    for (let n = 0; n < PLAN_LIMITS.Starter.monitoredAccounts; n++) {
      const res = await h.call("PUT", `${base}/${account(n)}`, {
        key: partner.key,
        body: awsAccount(account(n), partner.partnerId, tenant),
      });
      expect(res.status).toBe(200);
    }
    const over = PLAN_LIMITS.Starter.monitoredAccounts;
    const refused = await h.call("PUT", `${base}/${account(over)}`, {
      key: partner.key,
      body: awsAccount(account(over), partner.partnerId, tenant),
    });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toContain("plan Starter monitors at most 5 accounts");
    expect(refused.headers.get("retry-after")).toBeNull();
    const again = await h.call("PUT", `${base}/${account(0)}`, {
      key: partner.key,
      body: awsAccount(account(0), partner.partnerId, tenant),
    });
    expect(again.status).toBe(200);
    expect((await h.call("GET", base, { key: partner.key })).json).toHaveLength(over);
  });
});
