import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import { createTestDatabase } from "@sightline/db/testing";
import { ExecutionRecord } from "@sightline/domain";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  apiCaller,
  DEADLINE_MS,
  fakeAwsEnv,
  logLines,
  START_COMMAND,
  until,
} from "./start-command.ts";

// The built start command with SIGHTLINE_ROLE=all (the default), as `pnpm start` and `pnpm demo`
// run it: the API answers in this process, and the analysis runs in a worker child process, off
// the API's event loop. On a database of its own, so that its worker takes no other test's jobs.

const OPERATOR_KEY = randomBytes(32).toString("base64url");
const database = await createTestDatabase(inject("databaseUrl"));
const fake = await startFakeAws(smallAccount.model);
afterAll(async () => {
  await fake.close();
  await database.dispose();
});

interface LogLine {
  msg?: string;
  pid?: number;
  role?: string;
  executionId?: string;
  url?: string;
  workerPid?: number;
}

describe("the start command with SIGHTLINE_ROLE=all", () => {
  it("runs the analysis in a worker child process and stops it with itself", async () => {
    const child: ChildProcess = spawn(process.execPath, [START_COMMAND], {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: database.url,
        SIGHTLINE_DATA_DIR: await mkdtemp(path.join(tmpdir(), "sightline-all-")),
        SIGHTLINE_ADMIN_KEY: OPERATOR_KEY,
        PORT: "0",
        SIGHTLINE_POLL_SECONDS: "0.5",
        SIGHTLINE_DRAIN_SECONDS: "30",
        ...fakeAwsEnv(fake),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const lines = logLines<LogLine>(child.stdout);
    for (const stream of [child.stdout, child.stderr])
      stream?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
    const tail = () => output.slice(-3000);
    // The process's output names what did not happen.
    const saying = (what: string) => () => `${what}: ${tail()}`;
    try {
      const base = await until(
        saying("listening"),
        () => lines.find((l) => l.msg === "listening")?.url,
      );
      const workerPid = await until(
        saying("the worker process"),
        () => lines.find((l) => l.msg === "worker process started")?.workerPid,
      );
      expect(workerPid).not.toBe(child.pid);

      const call = apiCaller(base);
      const partnerId = `P${String(Date.now()).slice(-6)}`;
      const created = await call("POST", "/admin/api-keys", OPERATOR_KEY, { partnerId });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const key = created.json.key as string;
      const partner = await call("PUT", `/partner/${partnerId}`, key, { partnerId });
      expect(partner.status, JSON.stringify(partner.json)).toBe(200);
      const customer = await call("PUT", `/partner/${partnerId}/customer/acme-prod`, key, {
        partnerId,
        partnerCustomerId: "acme-prod",
        subscriptionPlanName: "Team",
        deliveryDestinations: [{ methodName: "DeliverToPartner" }],
      });
      expect(customer.status, JSON.stringify(customer.json)).toBe(200);
      const externalId = `ext-${partnerId}`;
      fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
      const account = `/partner/${partnerId}/customer/acme-prod/account/${smallAccount.ACCOUNT_ID}`;
      const put = await call("PUT", account, key, {
        partnerId,
        partnerCustomerId: "acme-prod",
        accountId: smallAccount.ACCOUNT_ID,
        provider: "aws",
        auditorAuthMethod: "config",
        auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
      });
      expect(put.status, JSON.stringify(put.json)).toBe(200);
      const trigger = await call("POST", `${account}/analysis`, key, {
        partnerId,
        partnerCustomerId: "acme-prod",
        accountId: smallAccount.ACCOUNT_ID,
      });
      expect(trigger.status).toBe(202);
      const executionId = trigger.json.executionId as string;
      let last: ExecutionRecord | undefined;
      const started = Date.now();
      while (Date.now() - started < DEADLINE_MS) {
        last = ExecutionRecord.parse((await call("GET", `/executions/${executionId}`, key)).json);
        if (last.status === "succeeded" || last.status === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(last?.status, tail()).toBe("succeeded");
      // The API's process logged the trigger; the worker process ran and delivered the analysis.
      const logged = lines.filter((l) => l.executionId === executionId);
      const delivered = logged.filter((l) => l.msg === "delivered");
      expect(delivered.length, JSON.stringify(logged)).toBe(1);
      expect(delivered[0]).toMatchObject({ pid: workerPid, role: "worker" });
      for (const line of logged)
        expect(line.pid === workerPid ? "worker" : "all", JSON.stringify(line)).toBe(line.role);
      expect(logged.some((l) => l.pid === child.pid)).toBe(true);

      // A worker process that dies is replaced.
      process.kill(workerPid, "SIGKILL");
      const replacement = await until(
        saying("a new worker process"),
        () =>
          lines.find((l) => l.msg === "worker process started" && l.workerPid !== workerPid)
            ?.workerPid,
      );
      expect(lines.some((l) => l.msg?.startsWith("the worker process ended"))).toBe(true);

      // Stopping the start command stops its worker.
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(() => process.kill(replacement, 0)).toThrow();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 300_000);
});
