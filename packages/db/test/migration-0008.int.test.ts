import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, expect, inject, it } from "vitest";
import { runMigrations } from "../src/index.ts";
import { createTestDatabase } from "../src/testing.ts";

const migrations = fileURLToPath(new URL("../drizzle", import.meta.url));
const database = await createTestDatabase(inject("databaseUrl"), { migrated: false });
const folder = await mkdtemp(path.join(tmpdir(), "sightline-migrations-"));
afterAll(async () => {
  await database.dispose();
  await rm(folder, { recursive: true, force: true });
});

/** The migrations before the keys' scopes, as a database of the release before has them. */
async function migrateBeforeScopes(url: string) {
  await cp(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalFile, "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith("_keys_audit"));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalFile, JSON.stringify(journal));
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end({ timeout: 5 });
  }
}

it("gives the keys that existed before scopes all four, a name, no expiry, and keeps them working", async () => {
  await migrateBeforeScopes(database.url);
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into api_keys (id, key_hash, partner_id) values
      ('key_AAAAAAAAAAAAAAAA', 'aa', 'P100001'), ('key_BBBBBBBBBBBBBBBB', 'bb', 'P100002')`;
    await runMigrations(database.url);
    const rows = await sql`
      select id, name, permissions, expires_at, revoked_at from api_keys order by id`;
    expect(rows.map((r) => ({ ...r }))).toEqual([
      {
        id: "key_AAAAAAAAAAAAAAAA",
        name: "key key_AAAAAAAAAAAAAAAA",
        permissions: ["read", "trigger", "configure", "keys"],
        expires_at: null,
        revoked_at: null,
      },
      {
        id: "key_BBBBBBBBBBBBBBBB",
        name: "key key_BBBBBBBBBBBBBBBB",
        permissions: ["read", "trigger", "configure", "keys"],
        expires_at: null,
        revoked_at: null,
      },
    ]);
  } finally {
    await sql.end({ timeout: 5 });
  }
});
