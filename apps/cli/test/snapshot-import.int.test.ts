import { execFile } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import {
  createDb,
  type DbHandle,
  insertExecution,
  latestSnapshot,
  runMigrations,
  startEmbeddedPostgres,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import { formatExecutionId } from "@sightline/domain";
import { AccessPathThreads, resourceAccessPaths, type ServiceContext } from "@sightline/services";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findPaths } from "../src/paths-command.ts";
import { ACCOUNT_A, ACCOUNT_B, TARGET, writeTwoAccounts } from "./two-accounts.ts";

const run = promisify(execFile);
const bin = path.join(import.meta.dirname, "../bin/sightline.mjs");
const databaseUrl = inject("databaseUrl");

/** The environment of the command, with DATABASE_URL set or, when undefined, removed. */
function envWith(url: string | undefined): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...env } = process.env;
  return url === undefined ? env : { ...env, DATABASE_URL: url };
}

let handle: DbHandle;
let files: { a: string; b: string };
let customerId: string;
const partnerId = `P${randomInt(100_000, 1_000_000)}`;
const partnerCustomerId = `cli-import-${randomBytes(4).toString("hex")}`;

const importArgs = (file: string, accountId: string, customer = partnerCustomerId) => [
  "snapshot",
  "import",
  ...["--partner", partnerId, "--customer", customer, "--account", accountId],
  ...["--authorization-details", file],
];

beforeAll(async () => {
  files = await writeTwoAccounts(await mkdtemp(path.join(tmpdir(), "sightline-import-")));
  handle = createDb(databaseUrl);
  await upsertPartner(handle.db, { partnerId });
  const ref = await upsertPartnerCustomer(handle.db, {
    partnerId,
    partnerCustomerId,
    subscriptionPlanName: "Enterprise",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  if (!ref) throw new Error("partner customer not stored");
  customerId = ref.customerId;
});
afterAll(() => handle.close());

describe("sightline snapshot import", () => {
  it("stores the account as the newest snapshot of the mapped customer", async () => {
    const { stdout } = await run(bin, importArgs(files.a, ACCOUNT_A), {
      env: envWith(databaseUrl),
    });
    const printed = JSON.parse(stdout) as { executionId: string; customerId: string };
    expect(printed).toEqual({ executionId: expect.any(String), customerId });
    const stored = await latestSnapshot(handle.db, { customerId, accountId: ACCOUNT_A });
    expect(stored?.executionId).toBe(printed.executionId);
    const collected = JSON.parse(gunzipSync(stored?.data ?? Buffer.alloc(0)).toString("utf8"));
    expect(collected.snapshot).toMatchObject({ accountId: ACCOUNT_A, partition: "aws" });
    expect(JSON.stringify(collected.snapshot.authorizationDetails)).toContain(TARGET);
  });

  it("lets endpoint 12 answer across imported accounts as `sightline paths` does", async () => {
    await run(bin, importArgs(files.b, ACCOUNT_B), { env: envWith(databaseUrl) });
    // The endpoint's verb reads only the database.
    const ctx = { db: handle.db, now: () => new Date() } as Partial<ServiceContext>;
    const threads = new AccessPathThreads();
    const answer = await resourceAccessPaths(ctx as ServiceContext, threads, {
      partnerId,
      partnerCustomerId,
      accountId: ACCOUNT_A,
      request: {
        resourceIds: [TARGET],
        principalAccessCapabilities: ["use-resource"],
        service: "STS",
        accessCapabilityOperator: "OR",
        maxAccessPathNodes: 10,
      },
    }).finally(() => threads.close());
    const local = await findPaths({
      authorizationDetails: [files.a, files.b],
      resources: [TARGET],
      service: "STS",
      capabilities: ["use-resource"],
      operator: "OR",
      maxNodes: 10,
    });
    expect(local.resourceAccessPaths[TARGET]?.accessPaths).toHaveLength(2);
    expect(answer).toEqual(local);
  });

  it("exits 2 with the service's message for an unknown partner customer", async () => {
    await expect(
      run(bin, importArgs(files.a, ACCOUNT_A, "nobody-here"), { env: envWith(databaseUrl) }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: `sightline: Customer nobody-here of partner ${partnerId} is not configured: PUT /partner/${partnerId}/customer/nobody-here first\n`,
    });
  });

  it("exits 2 while an analysis of the account runs", async () => {
    const accountId = "333333333333";
    const executionId = formatExecutionId({
      kind: "ondemand",
      customerId,
      accountId,
      startedAt: new Date(),
      random: randomBytes(4),
    });
    const execution = {
      executionId,
      kind: "ondemand" as const,
      customerId,
      accountId,
      partnerId,
      partnerCustomerId,
      provider: "aws",
      authMethod: "config" as const,
    };
    await insertExecution(handle.db, { execution }, async () => {});
    // An account without principals: nothing in the file names another account.
    const file = path.join(path.dirname(files.a), "no-principals.json");
    await writeFile(file, JSON.stringify({ UserDetailList: [], RoleDetailList: [] }));
    await expect(
      run(bin, importArgs(file, accountId), { env: envWith(databaseUrl) }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`is being analysed by execution ${executionId}`),
    });
  });

  it("exits 2 on a file of another account, storing nothing", async () => {
    const elsewhere = "444444444444";
    await expect(
      run(bin, importArgs(files.a, elsewhere), { env: envWith(databaseUrl) }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: `sightline: ${files.a} describes account ${ACCOUNT_A}, not --account ${elsewhere}\n`,
    });
    expect(await latestSnapshot(handle.db, { customerId, accountId: elsewhere })).toBeUndefined();
  });
});

describe("sightline snapshot import without DATABASE_URL", () => {
  // The service's own choice: the embedded Postgres in SIGHTLINE_DATA_DIR.
  it("uses the running service's embedded Postgres, or starts it for the import", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-data-"));
    await chmod(dataDir, 0o755); // as root, Postgres runs as the postgres user
    const pgDir = path.join(dataDir, "postgres");
    const env = { ...envWith(undefined), SIGHTLINE_DATA_DIR: dataDir };
    let customer = "";
    const snapshotsOf = async (url: string) => {
      const { db, close } = createDb(url);
      try {
        return await Promise.all(
          [ACCOUNT_A, ACCOUNT_B].map(
            async (accountId) =>
              (await latestSnapshot(db, { customerId: customer, accountId }))?.accountId,
          ),
        );
      } finally {
        await close();
      }
    };

    const service = await startEmbeddedPostgres({ dataDir: pgDir });
    let running = true;
    try {
      await runMigrations(service.url);
      const { db, close } = createDb(service.url);
      await upsertPartner(db, { partnerId });
      const ref = await upsertPartnerCustomer(db, {
        partnerId,
        partnerCustomerId,
        subscriptionPlanName: "Enterprise",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      });
      await close();
      customer = ref?.customerId ?? "";

      const whileRunning = await run(bin, importArgs(files.a, ACCOUNT_A), { env });
      expect(whileRunning.stderr).toContain("using the embedded Postgres of the running service");
      expect(await snapshotsOf(service.url)).toEqual([ACCOUNT_A, undefined]);
      await service.stop();
      running = false;

      const stopped = await run(bin, importArgs(files.b, ACCOUNT_B), { env });
      expect(stopped.stderr).toContain("embedded Postgres started");
      const again = await startEmbeddedPostgres({ dataDir: pgDir });
      try {
        expect(await snapshotsOf(again.url)).toEqual([ACCOUNT_A, ACCOUNT_B]);
      } finally {
        await again.stop();
      }
    } finally {
      if (running) await service.stop();
    }
  }, 180_000);
});
