import { type ChildProcess, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";
import {
  createDb,
  getExecution,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import { silentLogger } from "@sightline/logging";
import {
  DEFAULT_QUEUE_SETTINGS,
  getDeliveryVerification,
  localMasterKey,
  startJobQueue,
  triggerAnalysis,
} from "@sightline/services";
import { afterAll, describe, expect, inject, it } from "vitest";

const databaseUrl = inject("databaseUrl");
// Each collection waits through four credential report polls (about 4 s): time for SIGTERM.
const fake = await startFakeAws({ ...smallAccount.model, credentialReportPolls: 4 });
const dataDir = await mkdtemp(path.join(tmpdir(), "sightline-worker-"));
const database = createDb(databaseUrl, { maxConnections: 2 });
const boss = await startJobQueue({
  databaseUrl,
  logger: silentLogger,
  queue: DEFAULT_QUEUE_SETTINGS,
  maintenance: false,
});
const ctx = {
  db: database.db,
  boss,
  masterKey: localMasterKey(Buffer.alloc(32, 7)),
  logger: silentLogger,
  now: () => new Date(),
};
let worker: ChildProcess | undefined;
afterAll(async () => {
  worker?.kill("SIGKILL");
  await boss.stop({ graceful: false });
  await database.close();
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The built worker, configured only through its environment, as an operator runs it. */
function startWorkerProcess() {
  const endpoints = Object.fromEntries(
    ["STS", "IAM", "S3", "KMS", "ORGANIZATIONS", "EC2"].map((s) => [
      `AWS_ENDPOINT_URL_${s}`,
      fake.url,
    ]),
  );
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL("../dist/main.js", import.meta.url))],
    {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: databaseUrl,
        SIGHTLINE_DATA_DIR: dataDir,
        SIGHTLINE_POLL_SECONDS: "0.5",
        SIGHTLINE_S3_FORCE_PATH_STYLE: "true",
        AWS_ACCESS_KEY_ID: fake.serviceCredentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: fake.serviceCredentials.secretAccessKey,
        ...endpoints,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const lines: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) =>
    lines.push(...chunk.toString().split("\n").filter(Boolean)),
  );
  child.stderr?.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, lines, exited };
}

async function until(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the worker process", () => {
  it("analyses through the endpoints of its environment, and drains on SIGTERM", async () => {
    const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
    await upsertPartner(ctx.db, {
      partnerId,
      awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
      deliveryDestinations: { DeliverToS3: { bucketName: smallAccount.INBOX_BUCKET } },
    });
    const customer = await upsertPartnerCustomer(ctx.db, {
      partnerId,
      partnerCustomerId: "worker-tenant",
      subscriptionPlanName: "Team",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    });
    await upsertMonitoredAccount(ctx.db, {
      partnerId,
      partnerCustomerId: "worker-tenant",
      accountId: smallAccount.ACCOUNT_ID,
      provider: "aws",
      auditorAuthMethod: "config",
      auditorAuthConfig: {
        roleArn: smallAccount.AUDITOR_ROLE_ARN,
        externalId: smallAccount.EXTERNAL_ID,
      },
    });
    // The partner proved its inbox, as it must before anything is delivered there.
    const proof = await getDeliveryVerification(ctx.db, { kind: "partner", partnerId });
    fake.putObjectAsOwner(proof.bucketName, proof.key, proof.token);
    const process = startWorkerProcess();
    worker = process.child;
    await until(() => process.lines.some((line) => line.includes('"worker started"')));

    const { executionId } = await triggerAnalysis(ctx, {
      owner: { kind: "partner", partnerId, partnerCustomerId: "worker-tenant" },
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    await until(async () => (await getExecution(ctx.db, executionId))?.status === "running");
    process.child.kill("SIGTERM");
    expect(await process.exited).toBe(0);

    // The running analysis finished before the process stopped.
    const execution = await getExecution(ctx.db, executionId);
    expect(execution).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(customer?.customerId).toBeDefined();
    const manifest = execution?.reportKeys.at(-1) ?? "";
    expect(fake.objects.has(`${smallAccount.INBOX_BUCKET}/${manifest}`)).toBe(true);
    const log = process.lines.join("\n");
    // SIGTERM came while the analysis ran: the worker drained, then it was delivered, then stopped.
    const at = (message: string) =>
      process.lines.findIndex((l) => l.includes(`"msg":"${message}"`));
    expect(at("draining")).toBeGreaterThan(-1);
    expect(at("draining")).toBeLessThan(at("delivered"));
    expect(at("delivered")).toBeLessThan(at("stopped"));
    expect(log).not.toContain(fake.serviceCredentials.secretAccessKey);
  });
});
