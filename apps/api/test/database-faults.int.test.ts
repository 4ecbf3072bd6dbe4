import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb, rawQuery, runMigrations, startEmbeddedPostgres } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { createLogger, silentLogger } from "@sightline/logging";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createApp } from "../src/app.ts";
import { connectAppDeps } from "../src/deps.ts";
import { ADMIN_KEY, awsAccount, createHarness } from "./harness.ts";

// A database that holds a lock, or is gone, answers 503 with Retry-After within the configured
// timeout — never a 500, never a wait without end — and the log never carries the query's
// parameters (here an external ID and a role ARN).

const lines: string[] = [];
const h = await createHarness({
  logger: createLogger({ level: "debug", write: (line) => lines.push(line) }),
  lockTimeoutSeconds: 1,
  statementTimeoutSeconds: 3,
});
const holder = createDb(inject("databaseUrl"), { maxConnections: 1 });
afterAll(() => holder.close());

/** Holds `lock table …` in a transaction until `release` is called. */
async function holdLock(table: string): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const transaction = holder.db.transaction(async (tx) => {
    await tx.execute(rawQuery(`lock table ${table} in access exclusive mode`, []));
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await transaction;
  };
}

describe("database faults", () => {
  it("answers 503 with Retry-After while a lock is held past lock_timeout, and logs no parameters", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const secretExternalId = "locked-external-id-90210";
    const roleArn = "arn:aws:iam::123456789012:role/LockedAuditor";
    const body = {
      ...awsAccount("123456789012", pc.partnerId, pc.partnerCustomerId),
      auditorAuthConfig: { roleArn, externalId: secretExternalId },
    };
    const url = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/123456789012`;
    const from = lines.length;
    const release = await holdLock("monitored_accounts");
    let put: Awaited<ReturnType<typeof h.call>>;
    const started = performance.now();
    try {
      put = await h.call("PUT", url, { key: pc.key, body });
    } finally {
      await release();
    }
    const seconds = (performance.now() - started) / 1000;
    expect(put.status).toBe(503);
    expect(put.headers.get("retry-after")).toBe("5");
    expect(put.json).toMatchObject({ code: "UNAVAILABLE" });
    expect(seconds).toBeLessThan(4);
    const logged = lines.slice(from).join("\n");
    expect(logged).toContain("database unavailable");
    for (const secret of [secretExternalId, roleArn, "params"])
      expect(logged).not.toContain(secret);

    // The lock gone, the same request succeeds without a restart.
    expect((await h.call("PUT", url, { key: pc.key, body })).status).toBe(200);
  });
});

describe("a database without this build's schema", () => {
  it("is not ready: /readyz answers 503", async () => {
    const empty = await createTestDatabase(inject("databaseUrl"), { migrated: false });
    const handle = createDb(empty.url);
    try {
      const app = createApp({ ...h.deps, pingDatabase: handle.ping });
      const readyz = await app.request("/readyz");
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toEqual({ message: "Database is not reachable or not migrated" });
    } finally {
      await handle.close();
      await empty.dispose();
    }
  });
});

describe("a database that goes away and comes back", () => {
  it("answers 503 (and /readyz 503) while it is gone, and recovers without a restart", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sightline-gone-"));
    await chmod(dir, 0o755); // as root, Postgres runs as the postgres user
    const dataDir = path.join(dir, "postgres");
    let server = await startEmbeddedPostgres({ dataDir });
    await runMigrations(server.url);
    const running = await connectAppDeps({
      databaseUrl: server.url,
      adminKey: ADMIN_KEY,
      logger: silentLogger,
      boss: h.boss,
      masterKey: h.masterKey,
      maxConnections: 2,
      lockTimeoutSeconds: 1,
    });
    const app = createApp(running.deps);
    const call = async (method: string, url: string, body?: object) => {
      const response = await app.request(url, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_KEY}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, retryAfter: response.headers.get("retry-after") };
    };
    const register = (customerId: string) =>
      call("PUT", `/admin/customers/${customerId}`, { customerId });
    try {
      expect((await call("GET", "/readyz")).status).toBe(200);
      expect((await register("C100001")).status).toBe(200);

      await server.stop();
      expect(await register("C100002")).toEqual({ status: 503, retryAfter: "5" });
      expect((await call("GET", "/readyz")).status).toBe(503);

      server = await startEmbeddedPostgres({ dataDir, port: server.port });
      expect((await register("C100002")).status).toBe(200);
      expect((await call("GET", "/readyz")).status).toBe(200);
    } finally {
      await running.close();
      await server.stop();
    }
  }, 120_000);
});
