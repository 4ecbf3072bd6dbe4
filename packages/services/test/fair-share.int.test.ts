import { randomInt } from "node:crypto";
import { smallAccount } from "@sightline/aws-fake";
import {
  noteFairJobStarted,
  rawQuery,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import { afterEach, describe, expect, it } from "vitest";
import { ANALYSIS_QUEUE, enqueueAnalysis } from "../src/queue/analysis-queue.ts";
import { EVENT_QUEUE, enqueueEventStep } from "../src/queue/event-queue.ts";
import { tenantOf } from "../src/queue/fair-share.ts";
import { startJobQueue } from "../src/runtime/start-job-queue.ts";
import { type AccountOwner, triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { startWorker } from "../src/worker/start-worker.ts";
import { type Pipeline, startPipeline } from "./support/pipeline.ts";

let pipeline: Pipeline | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await pipeline?.close();
  pipeline = undefined;
});

/** Waits for `check`, failing after `seconds` with `what`. */
async function until(check: () => Promise<boolean> | boolean, seconds: number, what: string) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A partner whose `customers` customers each monitor the fake's small account (folder inbox). */
async function partnerWithCustomers(p: Pipeline, customers: number): Promise<AccountOwner[]> {
  const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
  const externalId = `ext-${partnerId}`;
  p.fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
  await upsertPartner(p.ctx.db, { partnerId });
  const owners: AccountOwner[] = [];
  for (let i = 0; i < customers; i++) {
    const partnerCustomerId = `tenant-${partnerId}-${i}`;
    await upsertPartnerCustomer(p.ctx.db, {
      partnerId,
      partnerCustomerId,
      subscriptionPlanName: "Enterprise",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    });
    const stored = await upsertMonitoredAccount(p.ctx.db, {
      partnerId,
      partnerCustomerId,
      accountId: smallAccount.ACCOUNT_ID,
      provider: "aws",
      auditorAuthMethod: "config",
      auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
    });
    if (stored.kind !== "stored") throw new Error(`account not stored: ${stored.kind}`);
    owners.push({ kind: "partner", partnerId, partnerCustomerId });
  }
  return owners;
}

interface JobRow {
  id: string;
  executionId: string | null;
  customerId: string | null;
  state: string;
  startedOn: Date | null;
}

async function jobsOf(p: Pipeline, queue: string): Promise<JobRow[]> {
  const rows = await p.ctx.db.execute(
    rawQuery(
      `select id, data->>'executionId' as "executionId", data->>'customerId' as "customerId",
        state, started_on as "startedOn"
      from "${p.schema}".job where name = $1`,
      [queue],
    ),
  );
  return [...rows].map((row) => {
    const r = row as unknown as JobRow;
    return { ...r, startedOn: r.startedOn === null ? null : new Date(r.startedOn) };
  });
}

describe("a fair share per tenant inside each lane", () => {
  it("takes B's on-demand analysis next, before A's burst of twenty queued before it (two workers)", async () => {
    const p = await startPipeline({ worker: false, queue: { expireInSeconds: 600 } });
    pipeline = p;
    // Two workers, each with a queue connection of its own, as two processes would have.
    await startWorker(p.ctx, p.settings);
    const second = await startJobQueue({
      databaseUrl: p.databaseUrl,
      logger: p.ctx.logger,
      queue: p.settings.queue,
      maintenance: false,
      maxConnections: 2,
      schema: p.schema,
    });
    closers.push(() => second.stop({ graceful: false, wait: true }));
    await startWorker({ ...p.ctx, boss: second }, p.settings);

    const burst = await partnerWithCustomers(p, 20);
    const [partnerB] = await partnerWithCustomers(p, 1);
    const aIds: string[] = [];
    for (const owner of burst) {
      const { executionId } = await triggerAnalysis(p.ctx, {
        owner,
        accountId: smallAccount.ACCOUNT_ID,
        kind: "ondemand",
      });
      aIds.push(executionId);
    }
    // A's burst is under way: its first jobs are running when B asks.
    await until(
      async () => (await jobsOf(p, ANALYSIS_QUEUE)).filter((j) => j.startedOn !== null).length >= 2,
      60,
      "two of A's analyses started",
    );
    const b = await triggerAnalysis(p.ctx, {
      owner: partnerB as AccountOwner,
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const waitingAtB = new Set(
      (await jobsOf(p, ANALYSIS_QUEUE))
        .filter((j) => j.state === "created" && j.executionId !== b.executionId)
        .map((j) => j.id),
    );
    expect(waitingAtB.size).toBeGreaterThanOrEqual(5);

    let bStarted: Date | null = null;
    await until(
      async () => {
        const jobs = await jobsOf(p, ANALYSIS_QUEUE);
        bStarted = jobs.find((j) => j.executionId === b.executionId)?.startedOn ?? null;
        return bStarted !== null;
      },
      120,
      "B's analysis started",
    );
    const jobs = await jobsOf(p, ANALYSIS_QUEUE);
    const aheadOfB = jobs.filter(
      (j) => waitingAtB.has(j.id) && j.startedOn !== null && j.startedOn < (bStarted as Date),
    );
    // Without the fair share, B's job starts after all of the A jobs waiting when it was queued.
    expect(aheadOfB.map((j) => j.executionId)).toEqual([]);
    expect((await p.finished(b.executionId)).status).toBe("succeeded");
  });

  it("orders the analysis lane: on-demand before daily, tenants in turns within each", async () => {
    const p = await startPipeline({ worker: false });
    pipeline = p;
    const { boss, db } = p.ctx;
    const send = (name: string, customerId: string, kind: "ondemand" | "daily") =>
      db.transaction((tx) =>
        enqueueAnalysis(boss, tx, {
          executionId: name,
          customerId,
          accountId: `${randomInt(1e11, 1e12 - 1)}`,
          kind,
        }),
      );
    const A = "P100001-000000000001";
    const A2 = "P100001-000000000002";
    const B = "C12345";
    const C = "P200002-000000000001";
    await send("A-daily-1", A, "daily");
    await send("A-daily-2", A2, "daily");
    await send("A-now-1", A, "ondemand");
    await send("A-now-2", A2, "ondemand");
    await send("A-now-3", A, "ondemand");
    await send("B-daily-1", B, "daily");
    await send("C-now-1", C, "ondemand");
    const order: string[] = [];
    for (;;) {
      const [job] = await boss.fetch<{ executionId: string }>(ANALYSIS_QUEUE);
      if (!job) break;
      order.push(job.data.executionId);
    }
    expect(order).toEqual([
      "A-now-1",
      "C-now-1",
      "A-now-2",
      "A-now-3",
      "A-daily-1",
      "B-daily-1",
      "A-daily-2",
    ]);
  });

  it("takes the event step of a tenant with nothing queued before the next of a tenant's burst", async () => {
    const p = await startPipeline({ worker: false });
    pipeline = p;
    const { boss, db } = p.ctx;
    const now = new Date(Date.now() - 1000);
    const A = "P300003-000000000001";
    const B = "P400004-000000000001";
    for (let i = 0; i < 5; i++)
      await enqueueEventStep(boss, db, {
        customerId: A,
        accountId: `10000000000${i}`,
        startAfter: now,
      });
    const take = async () => {
      const [job] = await boss.fetch<{ customerId: string; accountId: string }>(EVENT_QUEUE, {
        includeMetadata: true,
      });
      if (!job) return undefined;
      await noteFairJobStarted(db, {
        queueSchema: p.schema,
        queue: EVENT_QUEUE,
        priority: job.priority,
      });
      return `${tenantOf(job.data.customerId)}/${job.data.accountId}`;
    };
    const order = [await take(), await take()];
    await enqueueEventStep(boss, db, { customerId: B, accountId: "200000000000", startAfter: now });
    for (let next = await take(); next; next = await take()) order.push(next);
    expect(order).toEqual([
      "P300003/100000000000",
      "P300003/100000000001",
      "P400004/200000000000",
      "P300003/100000000002",
      "P300003/100000000003",
      "P300003/100000000004",
    ]);
    expect((await jobsOf(p, EVENT_QUEUE)).every((j) => j.state === "active")).toBe(true);
  });
});
