import { randomInt } from "node:crypto";
import { type FakeAws, smallAccount, startFakeAws } from "@sightline/aws-fake";
import {
  type Executor,
  getExecution,
  queueStatus,
  rawQuery,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import { deliveryVerificationOf } from "../src/delivery/delivery-verification.ts";
import { ANALYSIS_QUEUE } from "../src/queue/analysis-queue.ts";
import { type AccountOwner, triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { type BenchEnvironment, MANIFESTS_ONLY } from "./bench-environment.ts";
import { s, table } from "./report-table.ts";
import { startWorkerChild, type WorkerChild } from "./worker-child.ts";

/** The lane as sampled once a second: its depth, what runs, and how far A's burst has got. */
export interface FairnessSample {
  atMs: number;
  waiting: number;
  running: number;
  aDone: number;
  bStatus: string;
}

export interface FairnessResult {
  burst: number;
  workers: number;
  /** B's trigger → its job taken by a worker, and → its execution ended. */
  bQueuedMs: number;
  bTotalMs: number;
  bStatus: string;
  /** A's jobs that were waiting when B was queued and were taken before B's. */
  takenAheadOfB: number;
  /** A's analyses ended from A's first trigger to B's end, and their rate. */
  aDone: number;
  aPerMinute: number;
  samples: FairnessSample[];
}

/**
 * A partner with `customers` customers, each monitoring the fake's small account through one
 * auditor role and external ID of its own, delivering to its proven S3 inbox.
 */
async function partnerOf(
  db: Executor,
  fake: Pick<FakeAws, "trustExternalId" | "putObjectAsOwner">,
  customers: number,
): Promise<AccountOwner[]> {
  const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
  const externalId = `fair-${partnerId}`;
  fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
  await upsertPartner(db, {
    partnerId,
    awsEncryptionKeyId: smallAccount.INBOX_KEY_ARN,
    deliveryDestinations: { DeliverToS3: { bucketName: smallAccount.INBOX_BUCKET } },
  });
  // The partner has put its token in its bucket: the first delivery proves it, as in production.
  const proof = await deliveryVerificationOf(db, {
    ownerId: partnerId,
    bucketName: smallAccount.INBOX_BUCKET,
  });
  fake.putObjectAsOwner(proof.bucketName, proof.key, proof.token);
  const owners: AccountOwner[] = [];
  for (let i = 0; i < customers; i++) {
    const partnerCustomerId = `fair-${partnerId}-${i}`;
    await upsertPartnerCustomer(db, {
      partnerId,
      partnerCustomerId,
      subscriptionPlanName: "Enterprise",
      deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    });
    const stored = await upsertMonitoredAccount(db, {
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

const ended = (status: string | undefined) => status === "succeeded" || status === "failed";

/**
 * Partner A queues `burst` on-demand analyses (its customers' accounts, the fake's small
 * account); once the workers are busy with them, partner B queues one. Samples the lane every
 * second until B's analysis has ended; A's remaining jobs are left (the database goes with the run).
 */
export async function runFairness(
  env: BenchEnvironment,
  options: { burst: number; workers: number; log: (line: string) => void },
): Promise<FairnessResult> {
  const fake = await startFakeAws(smallAccount.model, { storeBodies: MANIFESTS_ONLY });
  const workers: WorkerChild[] = [];
  const { db } = env.ctx;
  try {
    for (let i = 1; i <= options.workers; i++)
      workers.push(
        await startWorkerChild(`fair-${i}`, {
          databaseUrl: env.databaseUrl,
          schema: env.schema,
          settings: env.workerSettings(fake),
        }),
      );
    const a = await partnerOf(db, fake, options.burst);
    const [b] = await partnerOf(db, fake, 1);
    const aIds = new Set<string>();
    const startedAt = Date.now();
    for (const owner of a) {
      const triggered = await triggerAnalysis(env.ctx, {
        owner,
        accountId: smallAccount.ACCOUNT_ID,
        kind: "ondemand",
      });
      aIds.add(triggered.executionId);
    }
    options.log(`fairness: A queued ${a.length} analyses in ${s(Date.now() - startedAt)}`);
    const jobs = async () =>
      [
        ...(await db.execute(
          rawQuery(
            `select id, data->>'executionId' as "executionId", state, started_on as "startedOn"
            from "${env.schema}".job where name = $1`,
            [ANALYSIS_QUEUE],
          ),
        )),
      ].map((row) => {
        const r = row as { id: string; executionId: string; state: string; startedOn: unknown };
        return { ...r, startedOn: r.startedOn ? new Date(r.startedOn as string) : null };
      });
    // B asks while the workers are busy with A's burst.
    while ((await jobs()).filter((j) => j.state === "active").length < options.workers)
      await Promise.race([new Promise((r) => setTimeout(r, 50)), ...workers.map((w) => w.crashed)]);
    const bAskedAt = Date.now();
    const bExecution = await triggerAnalysis(env.ctx, {
      owner: b as AccountOwner,
      accountId: smallAccount.ACCOUNT_ID,
      kind: "ondemand",
    });
    const waitingAtB = new Set(
      (await jobs())
        .filter((j) => j.state === "created" && aIds.has(j.executionId))
        .map((j) => j.id),
    );
    options.log(`fairness: B queued with ${waitingAtB.size} of A's analyses waiting`);
    const samples: FairnessSample[] = [];
    let bStarted: Date | undefined;
    for (;;) {
      const [lane] = await queueStatus(db, { queueSchema: env.schema, queues: [ANALYSIS_QUEUE] });
      const [done] = (await db.execute(
        rawQuery(
          `select count(*)::int as n from executions
          where execution_id = any(string_to_array($1, ',')) and status in ('succeeded', 'failed')`,
          [[...aIds].join(",")],
        ),
      )) as unknown as { n: number }[];
      const bRow = await getExecution(db, bExecution.executionId);
      const bJob = (await jobs()).find((j) => j.executionId === bExecution.executionId);
      bStarted ??= bJob?.startedOn ?? undefined;
      const sample = {
        atMs: Date.now() - startedAt,
        waiting: lane?.waiting ?? 0,
        running: lane?.running ?? 0,
        aDone: done?.n ?? 0,
        bStatus: bRow?.status ?? "?",
      };
      samples.push(sample);
      options.log(
        `  t=${s(sample.atMs)} depth ${sample.waiting}, running ${sample.running}, A ended ${sample.aDone}, B ${sample.bStatus}`,
      );
      if (ended(bRow?.status)) break;
      await Promise.race([
        new Promise((r) => setTimeout(r, 1000)),
        ...workers.map((w) => w.crashed),
      ]);
    }
    const bRow = await getExecution(db, bExecution.executionId);
    const bTotalMs = (bRow?.finishedAt?.getTime() ?? Date.now()) - (bRow?.createdAt.getTime() ?? 0);
    // Both from the database's clock: the execution's insert, its job's start.
    const bQueuedMs = (bStarted?.getTime() ?? Date.now()) - (bRow?.createdAt.getTime() ?? bAskedAt);
    const after = await jobs();
    const takenAheadOfB = after.filter(
      (j) => waitingAtB.has(j.id) && j.startedOn && bStarted && j.startedOn < bStarted,
    ).length;
    const last = samples.at(-1);
    const elapsedMs = Date.now() - startedAt;
    return {
      burst: a.length,
      workers: options.workers,
      bQueuedMs,
      bTotalMs,
      bStatus: bRow?.status ?? "?",
      takenAheadOfB,
      aDone: last?.aDone ?? 0,
      aPerMinute: (last?.aDone ?? 0) / (elapsedMs / 60_000),
      samples,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await fake.close();
  }
}

/** B's wait, A's throughput, and the lane's depth over time. */
export function fairnessReport(result: FairnessResult): string {
  const summary = table(
    [
      "A's burst",
      "workers",
      "B: queued → taken",
      "B: trigger → ended",
      "A jobs taken ahead of B",
      "A ended, rate",
    ],
    [
      [
        String(result.burst),
        String(result.workers),
        s(result.bQueuedMs),
        `${s(result.bTotalMs)} (${result.bStatus})`,
        String(result.takenAheadOfB),
        `${result.aDone} (${result.aPerMinute.toFixed(1)} a minute)`,
      ],
    ],
  );
  const depth = table(
    ["t", "depth (waiting)", "running", "A ended", "B"],
    result.samples.map((x) => [
      s(x.atMs),
      String(x.waiting),
      String(x.running),
      String(x.aDone),
      x.bStatus,
    ]),
  );
  return `${summary}\n\nThe analysis lane over time (t from A's first trigger):\n\n${depth}`;
}
