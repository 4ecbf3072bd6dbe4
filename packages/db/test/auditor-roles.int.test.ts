import { randomInt } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  createDb,
  listSharedAuditorRoles,
  rawQuery,
  upsertCustomerAccount,
  upsertDirectCustomer,
  upsertMonitoredAccount,
} from "../src/index.ts";
import { createPartnerCustomer, newAccountId } from "../src/testing.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());
const { db } = handle;
const partnerCustomer = (partnerId?: string) => createPartnerCustomer(db, partnerId);

/** A role of a fresh account, and an external ID no other test uses. */
function freshRole() {
  const accountId = newAccountId();
  const role = {
    roleArn: `arn:aws:iam::${accountId}:role/Auditor`,
    externalId: `ext-${randomInt(1e9)}`,
  };
  return { accountId, role };
}

const monitor = (
  owner: { partnerId: string; partnerCustomerId: string },
  accountId: string,
  role: { roleArn: string; externalId: string },
) =>
  upsertMonitoredAccount(db, {
    ...owner,
    accountId,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: role,
  });

describe("an auditor role and external ID belong to one tenant", () => {
  it("refuses another partner, whatever the case of the role ARN, but not another external ID", async () => {
    const { accountId, role } = freshRole();
    expect((await monitor(await partnerCustomer(), accountId, role)).kind).toBe("stored");
    const other = await partnerCustomer();
    const upper = { ...role, roleArn: role.roleArn.replace("Auditor", "AUDITOR") };
    expect(await monitor(other, accountId, upper)).toEqual({ kind: "role-in-use" });
    const own = { ...role, externalId: `${role.externalId}-own` };
    expect((await monitor(other, accountId, own)).kind).toBe("stored");
  });

  it("lets a partner use its pair for several customers", async () => {
    const { accountId, role } = freshRole();
    const first = await partnerCustomer();
    const second = await partnerCustomer(first.partnerId);
    expect((await monitor(first, accountId, role)).kind).toBe("stored");
    expect((await monitor(second, accountId, role)).kind).toBe("stored");
  });

  it("refuses a direct customer a partner's pair, and a partner a direct customer's", async () => {
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    await upsertDirectCustomer(db, { customerId, subscriptionPlanName: "Team" });
    const direct = (accountId: string, role: { roleArn: string; externalId: string }) =>
      upsertCustomerAccount(db, {
        customerId,
        accountId,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: role,
      });
    const partners = freshRole();
    expect((await monitor(await partnerCustomer(), partners.accountId, partners.role)).kind).toBe(
      "stored",
    );
    expect(await direct(partners.accountId, partners.role)).toEqual({ kind: "role-in-use" });
    const customers = freshRole();
    expect((await direct(customers.accountId, customers.role)).kind).toBe("stored");
    expect((await direct(customers.accountId, customers.role)).kind).toBe("stored");
    expect(await monitor(await partnerCustomer(), customers.accountId, customers.role)).toEqual({
      kind: "role-in-use",
    });
  });

  it("keeps accepting the re-PUT of a duplicate stored before the rule, and lists it", async () => {
    const { accountId, role } = freshRole();
    const first = await partnerCustomer();
    const second = await partnerCustomer();
    expect((await monitor(first, accountId, role)).kind).toBe("stored");
    await db.execute(
      rawQuery(
        "insert into monitored_accounts (partner_id, partner_customer_id, account_id, provider, auditor_auth_method, auditor_auth_config) values ($1, $2, $3, 'aws', 'config', $4)",
        [second.partnerId, second.partnerCustomerId, accountId, role],
      ),
    );
    expect((await monitor(second, accountId, role)).kind).toBe("stored");
    expect((await monitor(first, accountId, role)).kind).toBe("stored");
    expect(await listSharedAuditorRoles(db)).toContainEqual({
      roleArn: role.roleArn,
      owners: [first.partnerId, second.partnerId].sort(),
    });
    // Another account of the second partner may not take the pair up anew.
    const third = await partnerCustomer(second.partnerId);
    expect((await monitor(third, accountId, role)).kind).toBe("role-in-use");
  });

  it("lets exactly one of eight partners writing the same pair at once store it", async () => {
    const { accountId, role } = freshRole();
    const owners = await Promise.all(Array.from({ length: 8 }, () => partnerCustomer()));
    const results = await Promise.all(owners.map((owner) => monitor(owner, accountId, role)));
    const kinds = results.map((r) => r.kind);
    expect(kinds.filter((kind) => kind === "stored")).toHaveLength(1);
    expect(kinds.filter((kind) => kind === "role-in-use")).toHaveLength(7);
  });
});
