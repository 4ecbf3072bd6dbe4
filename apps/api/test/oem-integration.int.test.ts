import { OemIntegrationRecord, PartnerConfig } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { executionIds, partnerAccountPath, partnerTrigger } from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const grantPath = (partnerId: string) => `/admin/partners/${partnerId}/oem-integration`;
const rule = (partnerId: string) =>
  `only the operator makes partner ${partnerId} an OEM integration (PUT /admin/partners/${partnerId}/oem-integration); ask the operator`;

const cvsAccount = (pc: { partnerId: string; partnerCustomerId: string }, accountId: string) => ({
  partnerId: pc.partnerId,
  partnerCustomerId: pc.partnerCustomerId,
  accountId,
  provider: "aws",
  auditorAuthMethod: "cvs",
});

describe("only the operator makes a partner an OEM integration", () => {
  it("refuses a partner's own key: configs.oemIntegrationEnabled true is 403 and not stored", async () => {
    const { partnerId, key } = await h.newPartner();
    const before = await h.call("GET", `/partner/${partnerId}`, { key });
    const put = await h.call("PUT", `/partner/${partnerId}`, {
      key,
      body: { partnerId, configs: { oemIntegrationEnabled: true } },
    });
    expect(put.status).toBe(403);
    expect(put.json).toMatchObject({
      code: "FORBIDDEN",
      message: `configs.oemIntegrationEnabled: ${rule(partnerId)}`,
    });
    expect((await h.call("GET", `/partner/${partnerId}`, { key })).json).toEqual(before.json);
    // A partner not configured yet is not created by the refused PUT either.
    const fresh = await h.newPartner({ configure: false });
    const first = await h.call("PUT", `/partner/${fresh.partnerId}`, {
      key: fresh.key,
      body: { partnerId: fresh.partnerId, configs: { oemIntegrationEnabled: true } },
    });
    expect(first.status).toBe(403);
    expect((await h.call("GET", `/partner/${fresh.partnerId}`, { key: fresh.key })).status).toBe(
      404,
    );
    // Saying false (or nothing) is the partner's to say.
    const no = { partnerId, configs: { oemIntegrationEnabled: false } };
    expect((await h.call("PUT", `/partner/${partnerId}`, { key, body: no })).status).toBe(200);
  });

  it("refuses the admin route to a partner's key (403), for writing and reading", async () => {
    const { partnerId, key } = await h.newPartner();
    const body = { oemIntegrationEnabled: true };
    const put = await h.call("PUT", grantPath(partnerId), { key, body });
    expect(put.status).toBe(403);
    expect(put.json.message).toBe("Caller is not authorized to make partners OEM integrations");
    expect((await h.call("GET", grantPath(partnerId), { key })).status).toBe(403);
    expect(await h.admin("GET", grantPath(partnerId))).toMatchObject({
      status: 200,
      json: { partnerId, oemIntegrationEnabled: false },
    });
  });

  it("grants (a second grant keeps the first time), and revoking clears the partner's flag", async () => {
    const { partnerId, key } = await h.newPartner();
    const granted = await h.admin("PUT", grantPath(partnerId), { oemIntegrationEnabled: true });
    expect(granted.status).toBe(200);
    const record = OemIntegrationRecord.strict().parse(granted.json);
    expect(record).toEqual({
      partnerId,
      oemIntegrationEnabled: true,
      grantedAt: expect.any(String),
    });
    const again = await h.admin("PUT", grantPath(partnerId), { oemIntegrationEnabled: true });
    expect(again.json).toEqual(record);
    expect((await h.admin("GET", grantPath(partnerId))).json).toEqual(record);

    // With the grant, the partner may say so in its own configs.
    const claim = { partnerId, configs: { oemIntegrationEnabled: true } };
    expect((await h.call("PUT", `/partner/${partnerId}`, { key, body: claim })).status).toBe(200);
    const revoked = await h.admin("PUT", grantPath(partnerId), { oemIntegrationEnabled: false });
    expect(revoked.json).toEqual({ partnerId, oemIntegrationEnabled: false });
    const partner = await h.call("GET", `/partner/${partnerId}`, { key });
    expect(PartnerConfig.parse(partner.json).configs).toEqual({});
  });

  it("answers 404 for a partner not configured, and 400 for a body that is not the grant", async () => {
    const { partnerId } = await h.newPartner({ configure: false });
    for (const res of [
      await h.admin("PUT", grantPath(partnerId), { oemIntegrationEnabled: true }),
      await h.admin("GET", grantPath(partnerId)),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json.message).toContain(`PUT /partner/${partnerId} first`);
    }
    const { partnerId: known } = await h.newPartner();
    for (const body of [{ oemIntegrationEnabled: "yes" }, { oemIntegrationEnabled: true, x: 1 }]) {
      expect((await h.admin("PUT", grantPath(known), body)).status).toBe(400);
    }
  });
});

describe("cvs (credential vending) follows the operator's grant", () => {
  it("refuses a cvs account without the grant (403) and accepts it with the grant", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const path = partnerAccountPath(pc, "123456789012");
    const refused = await h.call("PUT", path, {
      key: pc.key,
      body: cvsAccount(pc, "123456789012"),
    });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain(rule(pc.partnerId));
    const list = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`;
    expect((await h.call("GET", list, { key: pc.key })).json).toEqual([]);
    await h.admin("PUT", grantPath(pc.partnerId), { oemIntegrationEnabled: true });
    const put = await h.call("PUT", path, { key: pc.key, body: cvsAccount(pc, "123456789012") });
    expect(put.status).toBe(200);
  });

  it("refuses to trigger a cvs account once the operator has revoked the grant (403)", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner({ oem: true }));
    const accountId = "123456789012";
    const put = await h.call("PUT", partnerAccountPath(pc, accountId), {
      key: pc.key,
      body: cvsAccount(pc, accountId),
    });
    expect(put.status).toBe(200);
    await h.admin("PUT", grantPath(pc.partnerId), { oemIntegrationEnabled: false });
    const trigger = await h.call("POST", `${partnerAccountPath(pc, accountId)}/analysis`, {
      key: pc.key,
      body: partnerTrigger(pc, accountId),
    });
    expect(trigger.status).toBe(403);
    expect(trigger.json).toMatchObject({
      code: "FORBIDDEN",
      message: `Account ${accountId} cannot be analysed: auditorAuthMethod 'cvs' (credential vending) is for OEM integrations, and ${rule(pc.partnerId)}`,
    });
    const list = await h.call("GET", `${partnerAccountPath(pc, accountId)}/executions`, {
      key: pc.key,
    });
    expect(executionIds(list.json)).toEqual([]);
    // Granted again, the same account is analysed.
    await h.admin("PUT", grantPath(pc.partnerId), { oemIntegrationEnabled: true });
    const again = await h.call("POST", `${partnerAccountPath(pc, accountId)}/analysis`, {
      key: pc.key,
      body: partnerTrigger(pc, accountId),
    });
    expect(again.status).toBe(202);
  });
});
