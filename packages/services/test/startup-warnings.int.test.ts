import { randomInt } from "node:crypto";
import {
  createDb,
  rawQuery,
  setOemGrant,
  upsertDirectCustomer,
  upsertMonitoredAccount,
} from "@sightline/db";
import { createPartnerCustomer, newAccountId } from "@sightline/db/testing";
import { createLogger } from "@sightline/logging";
import { afterAll, describe, expect, inject, it } from "vitest";
import { warnPendingOemRevocations } from "../src/runtime/warn-pending-oem-revocations.ts";
import { warnSharedAuditorRoles } from "../src/runtime/warn-shared-auditor-roles.ts";

const handle = createDb(inject("databaseUrl"));
afterAll(() => handle.close());
const { db } = handle;
const partnerCustomer = (partnerId?: string) => createPartnerCustomer(db, partnerId);

/** A logger whose JSON lines the test reads back. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line) });
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, records };
}

describe("warnPendingOemRevocations", () => {
  it("warns of each partner whose self-set OEM flag the upgrade cleared, and of its cvs accounts, until the operator grants it", async () => {
    const pc = await partnerCustomer();
    const accounts = [newAccountId(), newAccountId()].sort();
    for (const accountId of accounts)
      await upsertMonitoredAccount(db, {
        ...pc,
        accountId,
        provider: "aws",
        auditorAuthMethod: "cvs",
      });
    const cvsAccounts = accounts.map((accountId) => `${pc.partnerCustomerId}/${accountId}`);
    // As migration 0003 records them.
    await db.execute(
      rawQuery("insert into oem_revocations (partner_id, cvs_accounts) values ($1, $2)", [
        pc.partnerId,
        JSON.stringify(cvsAccounts),
      ]),
    );

    const before = capturingLogger();
    expect(await warnPendingOemRevocations(db, before.logger)).toBeGreaterThanOrEqual(1);
    const mine = before.records().filter((r) => r.partnerId === pc.partnerId);
    expect(mine.map((r) => r.level)).toEqual(["warn", "warn", "warn"]);
    const regrant = `PUT /admin/partners/${pc.partnerId}/oem-integration with {"oemIntegrationEnabled":true}`;
    expect(mine[0]).toMatchObject({ cvsAccounts: 2 });
    expect(mine[0]?.msg).toContain("with its own key");
    expect(mine[0]?.msg).toContain("the upgrade cleared that flag");
    expect(mine[0]?.msg).toContain(regrant);
    expect(mine.slice(1).map((r) => r.account)).toEqual(cvsAccounts);
    for (const line of mine.slice(1)) {
      expect(line.msg).toContain(`Account ${line.account} of partner ${pc.partnerId} uses cvs`);
      expect(line.msg).toContain(regrant);
    }

    await setOemGrant(db, pc.partnerId, true);
    const after = capturingLogger();
    await warnPendingOemRevocations(db, after.logger);
    expect(after.records().filter((r) => r.partnerId === pc.partnerId)).toEqual([]);
  });
});

describe("warnSharedAuditorRoles", () => {
  it("warns of a role and external ID several tenants configure, naming the role and the owners, never the external ID", async () => {
    const accountId = newAccountId();
    const roleArn = `arn:aws:iam::${accountId}:role/SharedAuditor`;
    const externalId = `shared-secret-${randomInt(1e9)}`;
    const first = await partnerCustomer();
    const second = await partnerCustomer();
    const customerId = `C${randomInt(100_000, 1_000_000)}`;
    await upsertDirectCustomer(db, { customerId });
    const stored = await upsertMonitoredAccount(db, {
      ...first,
      accountId,
      provider: "aws",
      auditorAuthMethod: "config",
      auditorAuthConfig: { roleArn, externalId },
    });
    expect(stored.kind).toBe("stored");
    // Duplicates Sightline accepted before the rule (the ARN in another case), as they were then.
    await db.execute(
      rawQuery(
        "insert into monitored_accounts (partner_id, partner_customer_id, account_id, provider, auditor_auth_method, auditor_auth_config) values ($1, $2, $3, 'aws', 'config', $4)",
        [
          second.partnerId,
          second.partnerCustomerId,
          accountId,
          { roleArn: roleArn.replace("SharedAuditor", "SHAREDAUDITOR"), externalId },
        ],
      ),
    );
    await db.execute(
      rawQuery(
        "insert into customer_accounts (customer_id, account_id, provider, auditor_auth_method, auditor_auth_config) values ($1, $2, 'aws', 'config', $3)",
        [customerId, accountId, { roleArn, externalId }],
      ),
    );
    // Another tenant's own external ID for the same role is no reuse.
    const third = await partnerCustomer();
    await upsertMonitoredAccount(db, {
      ...third,
      accountId,
      provider: "aws",
      auditorAuthMethod: "config",
      auditorAuthConfig: { roleArn, externalId: `${externalId}-own` },
    });

    const { logger, lines, records } = capturingLogger();
    expect(await warnSharedAuditorRoles(db, logger)).toBeGreaterThanOrEqual(1);
    const mine = records().filter((r) => String(r.roleArn).toLowerCase() === roleArn.toLowerCase());
    expect(mine).toEqual([
      expect.objectContaining({
        level: "warn",
        owners: [first.partnerId, second.partnerId, customerId].sort(),
        msg: expect.stringContaining("configured with the same external ID by 3 tenants"),
      }),
    ]);
    expect(mine[0]?.msg).toContain("each must choose one of its own");
    expect(lines.join("\n")).not.toContain(externalId);
  });
});
