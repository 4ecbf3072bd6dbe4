import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { createDb, rawQuery, runMigrations, startEmbeddedPostgres } from "@sightline/db";
import { ExecutionRecord } from "@sightline/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAnswerViolations, probeApi } from "./api-answers.ts";
import {
  apiCaller,
  DEADLINE_MS,
  fakeAwsEnv,
  logLines,
  START_COMMAND,
  until,
} from "./start-command.ts";

// Invariant 5 after the fault suite's database faults (services' faults-database test checks
// 1–4 for the same faults): the built start command (SIGHTLINE_ROLE=all) on a Postgres cluster of
// the test's own, an analysis running, while a probe calls the API's reads, /healthz and
// /readyz. Postgres stopped for longer than the lease, then started again; its connections
// terminated again and again. Every answer is a correct 200 or a 503 with Retry-After, never a
// 500 and never a hang; /readyz says the database is down while it is; the reads answer again
// once it is back, without a restart; the analysis ends.

const OPERATOR_KEY = randomBytes(32).toString("base64url");
/** A read without an answer this long is a hang (the API's own timeouts are a second or so). */
const HANG_MS = 5000;
/**
 * How long Postgres stays down: longer than the lease's life (2 s here), and long enough that
 * postgres.js's own reconnect delay (up to 20 s) made the reads wait past HANG_MS.
 */
const OUTAGE_MS = 10_000;
const fake = await startFakeAws(smallAccount.model);
const dir = await mkdtemp(path.join(tmpdir(), "sightline-api-faults-"));
await chmod(dir, 0o755); // as root, Postgres runs as the postgres user
const pgDir = path.join(dir, "postgres");
let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
let command: ChildProcess | undefined;
let base = "";

beforeAll(async () => {
  server = await startEmbeddedPostgres({ dataDir: pgDir });
  await runMigrations(server.url);
  command = spawn(process.execPath, [START_COMMAND], {
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: server.url,
      SIGHTLINE_DATA_DIR: path.join(dir, "data"),
      SIGHTLINE_ADMIN_KEY: OPERATOR_KEY,
      PORT: "0",
      SIGHTLINE_POLL_SECONDS: "0.5",
      SIGHTLINE_LEASE_RENEW_SECONDS: "0.5",
      SIGHTLINE_LEASE_LOST_AFTER_SECONDS: "2",
      SIGHTLINE_JOB_EXPIRE_SECONDS: "3600",
      // An attempt failed on a terminated connection runs again after 1 s, not 30.
      SIGHTLINE_JOB_RETRY_DELAY_SECONDS: "1",
      ...fakeAwsEnv(fake),
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const lines = logLines<{ msg?: string; url?: string }>(command.stdout);
  base = await until("listening", () => lines.find((l) => l.msg === "listening")?.url);
}, 180_000);

afterAll(async () => {
  if (command && command.exitCode === null) {
    const exited = new Promise((resolve) => command?.once("exit", resolve));
    command.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    if (command.exitCode === null) command.kill("SIGKILL");
  }
  await fake.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const call = apiCaller(() => base);

/** A partner monitoring the small account, and an analysis of it under way. */
async function analysisUnderWay() {
  const partnerId = `P${String(100_000 + Math.floor(Math.random() * 900_000))}`;
  const created = await call("POST", "/admin/api-keys", OPERATOR_KEY, { partnerId });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const key = created.json.key as string;
  expect((await call("PUT", `/partner/${partnerId}`, key, { partnerId })).status).toBe(200);
  const customer = `/partner/${partnerId}/customer/acme-prod`;
  const body = { partnerId, partnerCustomerId: "acme-prod" };
  const put = await call("PUT", customer, key, {
    ...body,
    subscriptionPlanName: "Team",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  const externalId = `ext-${partnerId}`;
  fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
  const account = `${customer}/account/${smallAccount.ACCOUNT_ID}`;
  const monitored = await call("PUT", account, key, {
    ...body,
    accountId: smallAccount.ACCOUNT_ID,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
  });
  expect(monitored.status, JSON.stringify(monitored.json)).toBe(200);
  // The collection waits on a slow IAM call: the fault comes while it runs.
  const calls = fake.calls.length;
  fake.inject({
    operation: "GetAccountAuthorizationDetails",
    kind: "delay",
    delayMs: 3000,
    times: 1,
  });
  const trigger = await call("POST", `${account}/analysis`, key, {
    ...body,
    accountId: smallAccount.ACCOUNT_ID,
  });
  expect(trigger.status).toBe(202);
  const executionId = trigger.json.executionId as string;
  await until("the collection under way", () =>
    fake.calls.slice(calls).some((c) => c.operation === "GetAccountAuthorizationDetails")
      ? true
      : undefined,
  );
  const reads = [
    { path: `/executions/${executionId}`, key, expect: { executionId } },
    { path: `${customer}/account`, key },
    { path: `${account}/executions`, key },
    { path: `${account}/findings`, key },
  ];
  return { key, executionId, reads };
}

/** Runs the fault with the probe, then waits for the reads to answer 200 again and checks. */
async function underProbe(
  reads: Awaited<ReturnType<typeof analysisUnderWay>>["reads"],
  fault: (probe: ReturnType<typeof probeApi>) => Promise<void>,
) {
  const probe = probeApi(base, reads, HANG_MS);
  try {
    await probe.rounds(2, DEADLINE_MS);
    await fault(probe);
    probe.enter("after");
    const last = () =>
      probe.reads.map((r) => {
        const answer = probe.answers.filter((a) => a.phase === "after" && a.path === r.path).at(-1);
        return `${r.path} ${answer?.status} ${JSON.stringify(answer?.body)}`;
      });
    await until(
      () => `the reads answer 200 again (${last().join("; ")})`,
      () => (last().every((line) => / 200 /.test(line)) ? true : undefined),
    );
  } finally {
    await probe.stop();
  }
  expect(apiAnswerViolations(probe.answers, probe.reads, HANG_MS)).toEqual([]);
  return probe.answers;
}

async function ends(executionId: string, key: string) {
  return until("the analysis ends", async () => {
    const got = await call("GET", `/executions/${executionId}`, key);
    if (got.status !== 200) return undefined;
    const record = ExecutionRecord.parse(got.json);
    return record.status === "succeeded" || record.status === "failed" ? record : undefined;
  });
}

describe("the API while the database fails (invariant 5)", () => {
  it("Postgres stopped longer than the lease and started again: 503 with Retry-After, /readyz 503, then answers again", async () => {
    const { key, executionId, reads } = await analysisUnderWay();
    const answers = await underProbe(reads, async (probe) => {
      probe.enter("fault");
      await server.stop();
      probe.enter("down");
      const downSince = Date.now();
      await probe.rounds(2, DEADLINE_MS);
      const left = OUTAGE_MS - (Date.now() - downSince);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      // "down" ends before the restart begins: what answers from here on may see it up.
      probe.enter("fault");
      server = await startEmbeddedPostgres({ dataDir: pgDir, port: server.port });
    });
    // While it was down the execution's read was refused as unavailable (one sent then may be
    // answered, correctly, once the database is back).
    const down = answers.filter((a) => a.endedIn === "down" && a.path === reads[0]?.path);
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((a) => a.status === 503 && a.retryAfter)).toBe(true);
    expect((await ends(executionId, key)).status).toBe("succeeded");
  }, 300_000);

  it("its connections terminated again and again: every answer correct or 503, none a 500 or a hang", async () => {
    const { key, executionId, reads } = await analysisUnderWay();
    const admin = createDb(server.url, { maxConnections: 1 });
    try {
      const answers = await underProbe(reads, async (probe) => {
        probe.enter("fault");
        let cuts = 0;
        const until5s = Date.now() + 5000;
        while (Date.now() < until5s || cuts < 8) {
          const [row] = await admin.db.execute(
            rawQuery(
              `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
               where datname = current_database() and pid <> pg_backend_pid()`,
              [],
            ),
          );
          cuts += Number(row?.n) > 0 ? 1 : 0;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      });
      expect(answers.filter((a) => a.phase === "fault").length).toBeGreaterThan(0);
    } finally {
      await admin.close();
    }
    expect((await ends(executionId, key)).status).toBe("succeeded");
  }, 300_000);
});
