import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { customerAccountPath, partnerAccountPath } from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();
const RULE =
  "auditorAuthConfig: this role ARN and external ID are already configured by another Sightline tenant; AWS's confused-deputy guidance makes the external ID what tells tenants apart: choose a new external ID and require it in the role's trust policy";

type PartnerCustomer = Awaited<ReturnType<typeof h.newPartnerCustomer>>;
type Role = { roleArn: string; externalId: string };

/** A role of a fresh account and an external ID no other test uses. */
function freshRole() {
  const accountId = String(randomInt(100_000_000_000, 999_999_999_999));
  const role = {
    roleArn: `arn:aws:iam::${accountId}:role/Auditor`,
    externalId: `ext-${randomInt(1e9)}`,
  };
  return { accountId, role };
}

const putPartnerAccount = (pc: PartnerCustomer, accountId: string, role: Role) =>
  h.call("PUT", partnerAccountPath(pc, accountId), {
    key: pc.key,
    body: {
      partnerId: pc.partnerId,
      partnerCustomerId: pc.partnerCustomerId,
      accountId,
      provider: "aws",
      auditorAuthMethod: "config",
      auditorAuthConfig: role,
    },
  });

const newPartnerCustomer = async () => h.newPartnerCustomer(await h.newPartner());

describe("no tenant reuses another's auditor role ARN and external ID", () => {
  it("answers 409 naming the rule, not the other tenant, and stores nothing", async () => {
    const { accountId, role } = freshRole();
    const first = await newPartnerCustomer();
    expect((await putPartnerAccount(first, accountId, role)).status).toBe(200);
    const second = await newPartnerCustomer();
    const refused = await putPartnerAccount(second, accountId, role);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "CONFLICT", message: RULE });
    for (const id of [first.partnerId, first.partnerCustomerId, first.customerId])
      expect(refused.text).not.toContain(id);
    const list = `/partner/${second.partnerId}/customer/${second.partnerCustomerId}/account`;
    expect((await h.call("GET", list, { key: second.key })).json).toEqual([]);
  });

  it("accepts the same account with another external ID, and the same partner's other customers", async () => {
    const { accountId, role } = freshRole();
    const first = await newPartnerCustomer();
    expect((await putPartnerAccount(first, accountId, role)).status).toBe(200);
    const own = { ...role, externalId: `${role.externalId}-own` };
    expect((await putPartnerAccount(await newPartnerCustomer(), accountId, own)).status).toBe(200);
    const sibling = await h.newPartnerCustomer(first);
    expect((await putPartnerAccount(sibling, accountId, role)).status).toBe(200);
    // An idempotent re-PUT of its own configuration is no reuse.
    expect((await putPartnerAccount(first, accountId, role)).status).toBe(200);
  });

  it("answers 409 between a direct customer and a partner, both ways", async () => {
    const customer = await h.newDirectCustomer("Team");
    const putDirect = (accountId: string, role: Role) =>
      h.call("PUT", customerAccountPath(customer, accountId), {
        key: customer.key,
        body: {
          customerId: customer.customerId,
          accountId,
          provider: "aws",
          auditorAuthMethod: "config",
          auditorAuthConfig: role,
        },
      });
    const partners = freshRole();
    expect(
      (await putPartnerAccount(await newPartnerCustomer(), partners.accountId, partners.role))
        .status,
    ).toBe(200);
    const direct = await putDirect(partners.accountId, partners.role);
    expect(direct.status).toBe(409);
    expect(direct.json.message).toBe(RULE);

    const customers = freshRole();
    expect((await putDirect(customers.accountId, customers.role)).status).toBe(200);
    const partner = await putPartnerAccount(
      await newPartnerCustomer(),
      customers.accountId,
      customers.role,
    );
    expect(partner.status).toBe(409);
    expect(partner.json.message).toBe(RULE);
    expect(partner.text).not.toContain(customer.customerId);
  });

  it("lets exactly one of two partners PUTting the same pair at once have it (200 and 409)", async () => {
    // Several rounds: one race could pass by luck without the lock that serialises them.
    for (let round = 0; round < 5; round++) {
      const { accountId, role } = freshRole();
      const owners = [await newPartnerCustomer(), await newPartnerCustomer()];
      const answers = await Promise.all(owners.map((pc) => putPartnerAccount(pc, accountId, role)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    }
  });
});
