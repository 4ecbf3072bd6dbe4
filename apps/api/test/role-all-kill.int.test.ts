import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { createTestDatabase } from "@sightline/db/testing";
import { ExecutionRecord } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";

// The built start command with SIGHTLINE_ROLE=all killed -9 in the middle of an analysis: its
// worker child, orphaned, drains (SIGHTLINE_DRAIN_SECONDS) holding its lease — the only attempt
// that may write meanwhile — then stops renewing and exits; the analysis comes back, within the
// lease's life, to the worker of the start command that replaces it, and is delivered once.
// (What the orphan may write: everything its attempt writes while it holds the lease, as any
// worker; nothing once the lease is lost — see services' worker-restart test, paused past it.)
// On a database of its own, so that its workers take no other test's jobs.

const OPERATOR_KEY = randomBytes(32).toString("base64url");
const DEADLINE_MS = 120_000;
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

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
async function startCommand() {
  const services = ["STS", "IAM", "S3", "KMS", "ORGANIZATIONS", "EC2"];
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL("../dist/main.js", import.meta.url))],
    {
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
        ...Object.fromEntries(services.map((s) => [`AWS_ENDPOINT_URL_${s}`, fake.url])),
        AWS_ACCESS_KEY_ID: fake.serviceCredentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: fake.serviceCredentials.secretAccessKey,
        SIGHTLINE_S3_FORCE_PATH_STYLE: "true",
      },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  started.push(child);
  const lines: LogLine[] = [];
  let partial = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts)
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // Not a log line.
      }
  });
  const base = await until("listening", () => lines.find((l) => l.msg === "listening")?.url);
  const workerPid = await until(
    "the worker process",
    () => lines.find((l) => l.msg === "worker process started")?.workerPid,
  );
  const call = async (method: string, route: string, key: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return { child, workerPid, call };
}

describe("SIGHTLINE_ROLE=all killed -9 in the middle of an analysis", () => {
  it("its orphaned worker drains, lets its lease go and exits; the replacing start command's worker delivers the analysis once", async () => {
    const first = await startCommand();
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
    second.child.kill("SIGTERM");
  }, 300_000);
});
