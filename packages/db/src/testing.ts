import { randomBytes, randomInt } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { Executor } from "./client.ts";
import { startEmbeddedPostgres } from "./embedded.ts";
import { runMigrations } from "./migrate.ts";
import { upsertPartnerCustomer } from "./partner-customers.ts";
import { upsertPartner } from "./partners.ts";

export interface TestDatabase {
  /** URL of a freshly created, migrated database of its own. */
  readonly url: string;
  dispose(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A migrated (or, with `migrated: false`, empty) database for one test run: on the server of `serverUrl` (DATABASE_URL) when given,
 * otherwise on an embedded Postgres in a temporary directory. Disposal drops what it created.
 */
export async function createTestDatabase(
  serverUrl?: string,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  let dataDir: string | undefined;
  let stopServer: (() => Promise<void>) | undefined;
  let baseUrl = serverUrl;
  if (!baseUrl) {
    dataDir = await mkdtemp(path.join(tmpdir(), "sightline-pg-"));
    await chmod(dataDir, 0o755); // Postgres runs as another user when we are root
    const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "data") });
    baseUrl = server.url;
    stopServer = server.stop;
  }
  const name = `sightline_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(baseUrl, name);
  if (options.migrated ?? true) await runMigrations(url);
  return {
    url,
    async dispose() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
      await stopServer?.();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A partner ID no other test is likely to draw. */
export const newPartnerId = (): string => `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;

/** A 12-digit account ID of a fresh account. */
export const newAccountId = (): string => String(randomInt(100_000_000_000, 999_999_999_999));

/** A configured partner (new unless given) and a new customer of it, delivered to the partner. */
export async function createPartnerCustomer(
  db: Executor,
  partnerId = newPartnerId(),
): Promise<{ partnerId: string; partnerCustomerId: string }> {
  await upsertPartner(db, { partnerId });
  const partnerCustomerId = `tenant-${randomInt(1e9)}`;
  await upsertPartnerCustomer(db, {
    partnerId,
    partnerCustomerId,
    subscriptionPlanName: "Team",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  return { partnerId, partnerCustomerId };
}
