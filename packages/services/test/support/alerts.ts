import { randomBytes, randomInt } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { loopbackCertificate } from "@sightline/azure-fake";
import {
  type AlertOwner,
  createDb,
  type Executor,
  listAlertDeliveries,
  listExecutions,
  upsertDirectCustomer,
  upsertPartner,
} from "@sightline/db";
import { type AccessChange, AlertDestinationsBody } from "@sightline/domain";
import { createLogger } from "@sightline/logging";
import { afterAll, expect, inject } from "vitest";
import { putAlertDestinations } from "../../src/alerts/alert-destinations.ts";
import type { AlertSettings, Resolver } from "../../src/alerts/alert-settings.ts";
import type { ServiceContext } from "../../src/context.ts";
import { localMasterKey } from "../../src/credentials/master-key.ts";
import { ALERT_QUEUE } from "../../src/queue/alert-queue.ts";
import { DEFAULT_QUEUE_SETTINGS } from "../../src/queue/analysis-queue.ts";
import { DEFAULT_LEASE_SETTINGS, LeaseKeeper } from "../../src/queue/lease-keeper.ts";
import { queueSchemaOf, startJobQueue } from "../../src/runtime/start-job-queue.ts";
import { alertJobHandler } from "../../src/worker/alert-job.ts";

/** Waits until `check` answers something truthy, polling, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The account's newest execution, once it is an event step that ended (succeeded or failed). */
export function eventStepEnded(
  db: Executor,
  key: { customerId: string; accountId: string },
  timeoutMs = 60_000,
) {
  return waitFor(
    async () => {
      const [latest] = await listExecutions(db, key, 1);
      return latest?.kind === "event" && ["succeeded", "failed"].includes(latest.status)
        ? latest
        : undefined;
    },
    "the event step to end",
    timeoutMs,
  );
}

/** A resolver of a few names (a test's DNS); answers can be changed as the test goes. */
export function fakeDns(answers: Record<string, string[]>): Resolver & {
  answers: Record<string, string[]>;
} {
  const resolve = (async (host: string) => {
    const found = resolve.answers[host];
    if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  }) as Resolver & { answers: Record<string, string[]> };
  resolve.answers = answers;
  return resolve;
}

let changeCounter = randomInt(1e9);

/** An access change with a fresh ID; `external-access-gained` unless told. */
export function accessChange(overrides: Partial<AccessChange> = {}): AccessChange {
  changeCounter++;
  return {
    changeId: randomBytes(16).toString("hex"),
    kind: "external-access-gained",
    change: "added",
    principalArn: `arn:aws:iam::444455556666:role/partner-${changeCounter}`,
    principalName: `partner-${changeCounter}`,
    principalType: "IAMRole",
    serviceName: "S3",
    accessCapability: "read-data",
    resourceArn: "arn:aws:s3:::payroll",
    reach: "external-account",
    confidential: false,
    before: "no access",
    after: "read-data",
    grantedBy: ["bucket policy of payroll [AllowPartner]"],
    ...overrides,
  };
}

/**
 * A service context on the run's database with a queue of its own and an alert worker on it
 * (unless `worker: false`); its logger keeps every line for the test to read.
 */
export async function startAlerts(options: { alerts?: AlertSettings; worker?: boolean } = {}) {
  const databaseUrl = inject("databaseUrl");
  const database = createDb(databaseUrl, { maxConnections: 4 });
  const lines: string[] = [];
  const logger = createLogger({ level: "debug", write: (line) => lines.push(line) });
  const boss = await startJobQueue({
    databaseUrl,
    logger,
    queue: DEFAULT_QUEUE_SETTINGS,
    maintenance: false,
    maxConnections: 3,
    schema: `pgboss_${randomBytes(4).toString("hex")}`,
  });
  const ctx: ServiceContext = {
    db: database.db,
    boss,
    masterKey: localMasterKey(randomBytes(32)),
    logger,
    now: () => new Date(),
    alerts: { retry: { limit: 2, delaySeconds: 1 }, ...options.alerts },
  };
  if (options.worker !== false)
    await boss.work(
      ALERT_QUEUE,
      { pollingIntervalSeconds: 0.5, batchSize: 1, includeMetadata: true },
      new LeaseKeeper(ctx, DEFAULT_LEASE_SETTINGS, queueSchemaOf(boss)).handler(
        ALERT_QUEUE,
        "alert",
        alertJobHandler(ctx),
      ),
    );
  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true });
    await database.close();
  });

  /** A fresh direct customer or partner with these destinations. */
  async function ownerWith(kind: "partner" | "direct", destinations: unknown[]) {
    const owner: AlertOwner =
      kind === "partner"
        ? { kind, partnerId: `P${String(randomInt(1_000_000)).padStart(6, "0")}` }
        : { kind, customerId: `C${randomInt(100_000, 1_000_000)}` };
    if (owner.kind === "partner") await upsertPartner(ctx.db, { partnerId: owner.partnerId });
    else await upsertDirectCustomer(ctx.db, { customerId: owner.customerId });
    const stored = await putAlertDestinations(
      ctx,
      owner,
      AlertDestinationsBody.parse({ destinations }),
    );
    const customerId =
      owner.kind === "partner" ? `${owner.partnerId}-000000000001` : owner.customerId;
    return { owner, customerId, stored: stored.destinations };
  }

  /** The destination's alert once it has ended (delivered or failed). */
  const settled = (destinationId: string) =>
    waitFor(async () => {
      const [delivery] = await listAlertDeliveries(ctx.db, destinationId);
      return delivery && delivery.status !== "queued" ? delivery : undefined;
    }, `the alert of ${destinationId} to settle`);

  return { ctx, lines, ownerWith, settled };
}

/** A request as a webhook receiver saw it. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTPS receiver on 127.0.0.1 with a certificate made for it: answers each request with the
 * next status of `statuses` (then 200), and counts connections (a refused alert makes none).
 */
export async function startReceiver(statuses: number[] = []) {
  const { cert, key } = await loopbackCertificate();
  const received: Received[] = [];
  let connections = 0;
  const server = createServer({ cert, key }, (request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(parts).toString("utf8") });
      response.writeHead(statuses.shift() ?? 200, { "content-type": "text/plain" });
      response.end("ok");
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    cert,
    port,
    url: `https://127.0.0.1:${port}/sightline/alerts`,
    received,
    statuses,
    connections: () => connections,
  };
}

/** Fails the test if any captured log line holds `secret`. */
export function expectNotLogged(lines: readonly string[], secret: string): void {
  expect(secret.length).toBeGreaterThan(8);
  expect(lines.filter((line) => line.includes(secret))).toEqual([]);
}
