import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { createDb, rawQuery } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { ExecutionRecord } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";
import { apiCaller, fakeAwsEnv, logLines, START_COMMAND, until } from "./start-command.ts";

// The built start command with SIGHTLINE_ROLE=all killed -9 in the middle of an analysis: its
// worker child, orphaned, drains (SIGHTLINE_DRAIN_SECONDS) holding its lease — the only attempt
// that may write meanwhile — then stops renewing and exits; the analysis comes back, within the
// lease's life, to the worker of the start command that replaces it, and is delivered once.
// What the orphan may write: everything its attempt writes while it holds the lease, as any
// worker; nothing once the lease is lost — paused (SIGSTOP) past it while another start command
// delivers the analysis, then woken, it changes no table an attempt writes and no inbox file.
// On a database of its own, so that its workers take no other test's jobs.

const OPERATOR_KEY = randomBytes(32).toString("base64url");
const database = await createTestDatabase(inject("databaseUrl"));
const fake = await startFakeAws(smallAccount.model);
const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-all-kill-"));
const started: ChildProcess[] = [];
afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  await fake.close();
  await database.dispose();
});

interface LogLine {
  msg?: string;
  url?: string;
  workerPid?: number;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The start command (API and worker child) on the test's database and data directory. */
async function startCommand(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [START_COMMAND], {
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: database.url,
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_ADMIN_KEY: OPERATOR_KEY,
      PORT: "0",
      SIGHTLINE_POLL_SECONDS: "0.5",
      SIGHTLINE_DRAIN_SECONDS: "2",
      SIGHTLINE_LEASE_RENEW_SECONDS: "0.5",
      SIGHTLINE_LEASE_LOST_AFTER_SECONDS: "2",
      SIGHTLINE_JOB_EXPIRE_SECONDS: "3600",
      ...fakeAwsEnv(fake),
      ...env,
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  started.push(child);
  const lines = logLines<LogLine>(child.stdout);
  const base = await until("listening", () => lines.find((l) => l.msg === "listening")?.url);
  const workerPid = await until(
    "the worker process",
    () => lines.find((l) => l.msg === "worker process started")?.workerPid,
  );
  const call = apiCaller(base);
  return { child, workerPid, call, lines };
}

type StartCommand = Awaited<ReturnType<typeof startCommand>>;

/** A partner with a customer monitoring the small account, delivered to the folder inbox. */
async function monitoredAccount(first: StartCommand) {
  const partnerId = `P${String(Date.now()).slice(-6)}`;
  const created = await first.call("POST", "/admin/api-keys", OPERATOR_KEY, { partnerId });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const key = created.json.key as string;
  expect((await first.call("PUT", `/partner/${partnerId}`, key, { partnerId })).status).toBe(200);
  const customer = `/partner/${partnerId}/customer/acme-prod`;
  const put = await first.call("PUT", customer, key, {
    partnerId,
    partnerCustomerId: "acme-prod",
    subscriptionPlanName: "Team",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  const externalId = `ext-${partnerId}`;
  fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
  const account = `${customer}/account/${smallAccount.ACCOUNT_ID}`;
  const monitored = await first.call("PUT", account, key, {
    partnerId,
    partnerCustomerId: "acme-prod",
    accountId: smallAccount.ACCOUNT_ID,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
  });
  expect(monitored.status, JSON.stringify(monitored.json)).toBe(200);

  return { key, account, partnerId };
}

describe("SIGHTLINE_ROLE=all killed -9 in the middle of an analysis", () => {
  it("its orphaned worker drains, lets its lease go and exits; the replacing start command's worker delivers the analysis once", async () => {
    const first = await startCommand();
    const { key, account, partnerId } = await monitoredAccount(first);
    // The collection waits on a slow IAM call: the start command is killed meanwhile.
    fake.inject({
      operation: "GetAccountAuthorizationDetails",
      kind: "delay",
      delayMs: 600_000,
      times: 1,
    });
    const trigger = await first.call("POST", `${account}/analysis`, key, {
      partnerId,
      partnerCustomerId: "acme-prod",
      accountId: smallAccount.ACCOUNT_ID,
    });
    expect(trigger.status).toBe(202);
    const executionId = trigger.json.executionId as string;
    await until("the collection under way", () =>
      fake.calls.some((c) => c.operation === "GetAccountAuthorizationDetails" && c.status === 0)
        ? true
        : undefined,
    );
    first.child.kill("SIGKILL");
    // The orphan drains for 2 s, stops renewing its lease and exits; its slow call is dropped.
    await until("the orphaned worker exits", () => (alive(first.workerPid) ? undefined : true));
    expect(fake.calls.filter((c) => c.status === 499)).toHaveLength(1);

    const second = await startCommand();
    const record = await until("the execution ends", async () => {
      const got = ExecutionRecord.parse(
        (await second.call("GET", `/executions/${executionId}`, key)).json,
      );
      return got.status === "succeeded" || got.status === "failed" ? got : undefined;
    });
    expect(record.status).toBe("succeeded");
    expect(record.warnings.map((w) => w.code)).toContain("WORKER_LOST");
    // Delivered once, to the folder inbox of the data directory: one dated manifest, no partial file.
    const files = (await readdir(path.join(dataDir, "inbox"), { recursive: true })).map(String);
    const manifests = files.filter((f) =>
      /\/sightline\/\d{4}\/\d{2}\/manifest\.[^/]+\.json$/.test(f),
    );
    expect(manifests).toHaveLength(1);
    expect(files.filter((f) => f.includes(".partial-"))).toEqual([]);
    await stop(second);
  }, 300_000);

  it("its orphan paused past its lease writes nothing when it wakes: no results, manifest, execution end or alert", async () => {
    // A long drain: the woken attempt is stopped by its lost lease, not by the drain's end.
    const first = await startCommand({ SIGHTLINE_DRAIN_SECONDS: "60" });
    const orphan = first.workerPid;
    try {
      const { key, account, partnerId } = await monitoredAccount(first);
      // The slow IAM call answers while the orphan is paused: it wakes with its collection able
      // to go on.
      fake.inject({
        operation: "GetAccountAuthorizationDetails",
        kind: "delay",
        delayMs: 8000,
        times: 1,
      });
      const trigger = await first.call("POST", `${account}/analysis`, key, {
        partnerId,
        partnerCustomerId: "acme-prod",
        accountId: smallAccount.ACCOUNT_ID,
      });
      expect(trigger.status).toBe(202);
      const executionId = trigger.json.executionId as string;
      const calls = fake.calls.length;
      await until("the collection under way", () =>
        fake.calls
          .slice(calls)
          .some((c) => c.operation === "GetAccountAuthorizationDetails" && c.status === 0)
          ? true
          : undefined,
      );
      first.child.kill("SIGKILL");
      process.kill(orphan, "SIGSTOP");

      // Another start command's worker takes the job once the lease is lost, and delivers it.
      const second = await startCommand();
      const record = await until("the execution ends", async () => {
        const got = ExecutionRecord.parse(
          (await second.call("GET", `/executions/${executionId}`, key)).json,
        );
        return got.status === "succeeded" || got.status === "failed" ? got : undefined;
      });
      expect(record.status).toBe("succeeded");
      expect(record.warnings.map((w) => w.code)).toContain("WORKER_LOST");
      // Only the orphan is left to write: everything it could write is fingerprinted.
      await stop(second);
      const before = { store: await fingerprint(), inbox: await inboxFiles() };
      const from = first.lines.length;
      process.kill(orphan, "SIGCONT");
      await until("the woken orphan exits", () => (alive(orphan) ? undefined : true));
      const woken = first.lines.slice(from).map((l) => l.msg ?? "");
      expect(woken.some((msg) => /lost its lease|its lease was lost/.test(msg))).toBe(true);
      expect({ store: await fingerprint(), inbox: await inboxFiles() }).toEqual(before);
    } finally {
      if (alive(orphan)) {
        process.kill(orphan, "SIGCONT");
        process.kill(orphan, "SIGKILL");
      }
    }
  }, 300_000);
});

/** SIGTERM, then waits for the start command and its worker child to exit. */
async function stop(command: StartCommand) {
  command.child.kill("SIGTERM");
  await until("the start command stops", () =>
    command.child.exitCode !== null && !alive(command.workerPid) ? true : undefined,
  );
}

/** Each table an attempt writes (all but the queue's and the leases'): rows and their digest. */
async function fingerprint(): Promise<Record<string, string>> {
  const handle = createDb(database.url, { maxConnections: 1 });
  try {
    const tables = (await handle.db.execute(
      rawQuery(
        `select table_name as name from information_schema.tables where table_schema = 'public'
         and table_type = 'BASE TABLE' and table_name not in ('job_leases', 'lost_lease_counts')
         order by 1`,
        [],
      ),
    )) as unknown as { name: string }[];
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      const [row] = (await handle.db.execute(
        rawQuery(
          `select count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as d
           from "${name}" t`,
          [],
        ),
      )) as unknown as { d: string }[];
      digests[name] = row?.d ?? "";
    }
    return digests;
  } finally {
    await handle.close();
  }
}

/** The folder inbox's files with their sizes and modification times. */
async function inboxFiles(): Promise<string[]> {
  const root = path.join(dataDir, "inbox");
  const files = (await readdir(root, { recursive: true })).map(String);
  const described = await Promise.all(
    files.map(async (f) => {
      const info = await stat(path.join(root, f));
      return `${f} ${info.size} ${info.mtimeMs}`;
    }),
  );
  return described.sort();
}
