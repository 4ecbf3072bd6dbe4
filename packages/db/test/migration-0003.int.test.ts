import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, expect, inject, it } from "vitest";
import {
  createDb,
  getOemGrant,
  listOemRevocationsPending,
  rawQuery,
  runMigrations,
} from "../src/index.ts";
import { createTestDatabase } from "../src/testing.ts";

const migrations = fileURLToPath(new URL("../drizzle", import.meta.url));
const database = await createTestDatabase(inject("databaseUrl"), { migrated: false });
const folder = await mkdtemp(path.join(tmpdir(), "sightline-migrations-"));
afterAll(async () => {
  await database.dispose();
  await rm(folder, { recursive: true, force: true });
});

/** Migrations 0000 to 0002 only, as a database of the release before 0003 has them. */
async function migrateBefore0003(url: string) {
  await cp(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= 2);
  await writeFile(journalFile, JSON.stringify(journal));
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end({ timeout: 5 });
  }
}

it("migration 0003 records the partners that had made themselves OEM integrations, with their cvs accounts, and clears the flag", async () => {
  await migrateBefore0003(database.url);
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into partners (partner_id, configs) values
      ('P100001', '{"oemIntegrationEnabled": true}'),
      ('P100002', '{"oemIntegrationEnabled": false}'),
      ('P100003', '{}')`;
    await sql`insert into partner_customers (partner_id, partner_customer_id, subscription_plan_name, delivery_destinations)
      values ('P100001', 'acme', 'Team', '[]'), ('P100003', 'globex', 'Team', '[]')`;
    await sql`insert into monitored_accounts (partner_id, partner_customer_id, account_id, provider, auditor_auth_method, auditor_auth_config) values
      ('P100001', 'acme', '222222222222', 'aws', 'cvs', null),
      ('P100001', 'acme', '111111111111', 'aws', 'cvs', null),
      ('P100001', 'acme', '333333333333', 'aws', 'config', '{"roleArn": "arn:aws:iam::333333333333:role/A", "externalId": "x1"}'),
      ('P100003', 'globex', '444444444444', 'aws', 'config', '{"roleArn": "arn:aws:iam::444444444444:role/A", "externalId": "x2"}')`;
  } finally {
    await sql.end({ timeout: 5 });
  }

  await runMigrations(database.url);
  const handle = createDb(database.url);
  try {
    expect(await handle.ping()).toBeUndefined();
    const configs = await handle.db.execute<{ partner_id: string; configs: unknown }>(
      rawQuery("select partner_id, configs from partners order by partner_id", []),
    );
    expect([...configs]).toEqual([
      { partner_id: "P100001", configs: {} },
      { partner_id: "P100002", configs: {} },
      { partner_id: "P100003", configs: {} },
    ]);
    expect(await listOemRevocationsPending(handle.db)).toEqual([
      {
        partnerId: "P100001",
        cvsAccounts: ["acme/111111111111", "acme/222222222222"],
        revokedAt: expect.any(Date),
      },
    ]);
    expect(await getOemGrant(handle.db, "P100001")).toEqual({
      partnerId: "P100001",
      oemIntegrationEnabled: false,
    });
  } finally {
    await handle.close();
  }
});
