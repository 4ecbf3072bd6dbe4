import { join } from "node:path";
import { startFakeAws } from "@sightline/aws-fake";
import { getExecution, listExecutions } from "@sightline/db";
import { deliveryVerificationOf } from "../src/delivery/delivery-verification.ts";
import { rotateEventToken } from "../src/events/event-sources.ts";
import { eventSourceOfToken, receiveAwsEvent } from "../src/events/receive-aws-event.ts";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { DEFAULT_EVENT_SETTINGS } from "../src/worker/event-job.ts";
import { monitorWithSnapshot } from "../test/support/organization-snapshots.ts";
import { type BenchEnvironment, MANIFESTS_ONLY } from "./bench-environment.ts";
import { policyHeldByNearly } from "./managed-policy-holders.ts";
import {
  ACCOUNT_ID,
  INBOX_BUCKET,
  type SyntheticSize,
  syntheticAccountModel,
} from "./synthetic-model.ts";
import { startWorkerChild } from "./worker-child.ts";

/**
 * Event → changes stored and alerts queued, through a worker process as production runs it: the
 * synthetic account analysed whole once, its event source rotated, then each change made in the
 * fake AWS and its CloudTrail event received, and the time until the event step's execution
 * ended (its changes stored, its alerts enqueued) measured, with the worker's CPU for the step.
 * The full analysis's worker CPU is measured in the same run, for the ratio.
 */

export interface LatencyRow {
  change: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Worker CPU per step (median). */
  cpuMs: number;
  changes: number;
  whole: boolean;
}

export interface LatencyResult {
  size: SyntheticSize;
  quietSeconds: number;
  /** The median of the warm full analyses (the worker's code compiled, a previous result compared). */
  fullCpuMs: number;
  fullMs: number;
  /** The worker's first full analysis, which compiled its code too. */
  firstFullCpuMs: number;
  /** The idle worker's CPU (ms a second). */
  idleCpuMsPerSecond: number;
  /** The worker's `keptPrincipals`: 0 when each step read the stored snapshot back. */
  keptPrincipals: number;
  rows: LatencyRow[];
}

/** Full analyses after the worker's first: the median of their CPU is the ratio's base. */
const WARM_FULL_ANALYSES = 3;
/** How long the idle worker's CPU is measured. */
const IDLE_SECONDS = 5;

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};

export async function runEventLatency(
  env: BenchEnvironment,
  size: SyntheticSize,
  runs: number,
  log: (line: string) => void,
  /** Only the changes whose name contains one of these words (none: every change). */
  only: readonly string[] = [],
  /** The worker's `keptPrincipals` (`StepBases`). */
  keptPrincipals = DEFAULT_EVENT_SETTINGS.keptPrincipals,
): Promise<LatencyResult> {
  const quietSeconds = 1;
  const model = syntheticAccountModel(size);
  const fake = await startFakeAws(model, { storeBodies: MANIFESTS_ONLY });
  const worker = await startWorkerChild(`events-${size}`, {
    databaseUrl: env.databaseUrl,
    schema: env.schema,
    settings: {
      ...env.workerSettings(fake),
      events: { ...DEFAULT_EVENT_SETTINGS, quietSeconds, keptPrincipals },
    },
  });
  try {
    const partnerId = await env.addPartner();
    const proof = await deliveryVerificationOf(env.ctx.db, {
      ownerId: partnerId,
      bucketName: INBOX_BUCKET,
    });
    fake.putObjectAsOwner(proof.bucketName, proof.key, proof.token);
    const owner = await env.addCustomer(partnerId);
    // A worker's first analysis also compiles its code (V8), once in the worker's life; the warm
    // ones after it, each comparing with the one before as every daily run does, are what a step
    // is set beside.
    const analyse = async (which: string) => {
      const cpu0 = (await worker.usage()).cpuSeconds;
      const started = Date.now();
      const { executionId } = await triggerAnalysis(env.ctx, {
        owner,
        accountId: ACCOUNT_ID,
        kind: "ondemand",
      });
      const [full] = await Promise.race([env.finished([executionId]), worker.crashed]);
      if (full?.status !== "succeeded")
        throw new Error(`the ${which} full analysis ${full?.status}: ${full?.failureMessage}`);
      const ms = Date.now() - started;
      const cpuMs = ((await worker.usage()).cpuSeconds - cpu0) * 1000;
      log(
        `events latency ${size}: ${which} full analysis ${(ms / 1000).toFixed(1)} s, ${(cpuMs / 1000).toFixed(1)} s worker CPU`,
      );
      return { ms, cpuMs };
    };
    const cold = await analyse("first");
    // What the worker spends doing nothing (its queues polled, its leases kept): a step's CPU
    // includes it for as long as the step takes.
    const idle0 = (await worker.usage()).cpuSeconds;
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idleCpuMsPerSecond = (((await worker.usage()).cpuSeconds - idle0) * 1000) / IDLE_SECONDS;
    // The warm ones vary from run to run on a shared machine (3.2–5.4 s at 1,000 principals,
    // 46–65 s at 10,000): their median is what a step is set beside.
    const warm: { ms: number; cpuMs: number }[] = [];
    for (let i = 0; i < WARM_FULL_ANALYSES; i++) warm.push(await analyse(`warm (${i + 1})`));
    const fullMs = quantile(
      warm.map((w) => w.ms),
      0.5,
    );
    const fullCpuMs = quantile(
      warm.map((w) => w.cpuMs),
      0.5,
    );
    const { token } = await rotateEventToken(
      env.ctx,
      owner,
      ACCOUNT_ID,
      "https://sightline.example",
    );
    const source = await eventSourceOfToken(env.ctx, token);
    const key = { customerId: source.customerId, accountId: ACCOUNT_ID };
    const control = fake.control;
    const user = (i: number) => `user-${i}`;
    const allow = (Action: string, Resource = "*") => ({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action, Resource }],
    });
    // A managed policy on ~500 principals: a new default version each run, the one before it
    // deleted (AWS keeps five at most).
    const held = policyHeldByNearly(model, 500);
    let defaultVersion = String(
      (model.authorizationDetails?.Policies ?? []).find((p) => p.Arn === held.arn)
        ?.DefaultVersionId,
    );
    // An SCP comes with the management account's token; its step analyses the account whole.
    const organization = model.organization;
    const scp = organization?.policies.find((p) => p.targets.includes(ACCOUNT_ID));
    let managementSource: typeof source | undefined;
    if (organization && scp) {
      // The fake serves the member account only: the management account is monitored with a
      // stored snapshot that names the organisation, so that its SCP events reach the member.
      await monitorWithSnapshot(
        env.ctx.db,
        { ...owner, customerId: source.customerId },
        organization.managementAccountId,
        organization.id,
      );
      const management = await rotateEventToken(
        env.ctx,
        owner,
        organization.managementAccountId,
        "https://sightline.example",
      );
      managementSource = await eventSourceOfToken(env.ctx, management.token);
    }
    // The small account has 40 roles and 5 buckets: its trust policies change from role-20 on,
    // and its bucket policies go round.
    const roles = model.authorizationDetails?.RoleDetailList?.length ?? 1;
    const dataBuckets = (model.buckets ?? []).filter((b) => b.name.startsWith("data-")).length || 1;
    const cases: {
      change: string;
      make: (run: number) => unknown[];
      /** The event source posting (default: the account's own). */
      from?: typeof source;
      /** Counted steps (default `runs`), and whether one not counted comes first. */
      runs?: number;
      warmUp?: boolean;
    }[] = [
      {
        change: "a user's inline policy",
        make: (run) => [
          control.putInlinePolicy("user", user(10 + run), "bench", {
            Version: "2012-10-17",
            Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: "*" }],
          }),
        ],
      },
      { change: "a user made an admin", make: (run) => [control.makeAdmin(user(40 + run))] },
      {
        change: `a managed policy on ${held.holders} principals`,
        make: (run) => {
          const made = control.createPolicyVersion(held.arn, allow(`sqs:ListQueues${run}`), true);
          const deleted = control.deletePolicyVersion(held.arn, defaultVersion);
          defaultVersion = made.versionId;
          return [made.event, deleted];
        },
      },
      {
        change: "a role's trust policy",
        make: (run) => [
          control.updateAssumeRolePolicy(`role-${(60 + run) % roles}`, {
            Version: "2012-10-17",
            Statement: [
              {
                Effect: "Allow",
                Principal: { AWS: "arn:aws:iam::444455556666:root" },
                Action: "sts:AssumeRole",
              },
            ],
          }),
        ],
      },
      {
        change: "a bucket policy",
        make: (run) => [
          control.setBucketPolicy(`data-${run % dataBuckets}`, {
            Version: "2012-10-17",
            Statement: [
              {
                Effect: "Allow",
                Principal: { AWS: "arn:aws:iam::444455556666:root" },
                Action: "s3:GetObject",
                Resource: `arn:aws:s3:::data-${run % dataBuckets}/*`,
              },
            ],
          }),
        ],
      },
    ];
    // The small account's 60 users have no 200 to change at once.
    if (size !== "small")
      cases.push({
        change: "a 200-event burst",
        make: (run) =>
          Array.from({ length: 200 }, (_, i) =>
            control.putInlinePolicy("user", user(200 + run * 200 + i), "burst", {
              Version: "2012-10-17",
              Statement: [{ Effect: "Allow", Action: "s3:ListBucket", Resource: "*" }],
            }),
          ),
      });
    if (managementSource && scp)
      cases.push({
        change: "an SCP (the account analysed whole)",
        make: (run) => [
          control.changeOrganizationPolicy(scp.id, {
            document: {
              Version: "2012-10-17",
              Statement: [
                { Effect: "Allow", Action: "*", Resource: "*" },
                { Effect: "Deny", Action: `s3:PutBucketAcl${run}`, Resource: "*" },
              ],
            },
          }),
        ],
        from: managementSource,
        runs: 2,
        warmUp: false,
      });
    const rows: LatencyRow[] = [];
    // SIGHTLINE_BENCH_STEP_PROFILE=<dir>: the worker's CPU profile of each change's steps there.
    const profileDir = process.env.SIGHTLINE_BENCH_STEP_PROFILE;
    const chosen = cases.filter(
      ({ change }) => only.length === 0 || only.some((w) => change.includes(w)),
    );
    for (const { change, make, from = source, runs: counted = runs, warmUp = true } of chosen) {
      const measure = (work: () => Promise<void>) =>
        profileDir
          ? worker.profile(
              join(profileDir, `${size}-${change.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`),
              work,
            )
          : work();
      /** One step: its events received, the time until it ended, the worker's CPU meanwhile. */
      const step = async (run: number) => {
        const [before] = await listExecutions(env.ctx.db, key, 1);
        const cpuBefore = (await worker.usage()).cpuSeconds;
        const events = make(run);
        const received = Date.now();
        for (const event of events) await receiveAwsEvent(env.ctx, from, event, { quietSeconds });
        const deadline = Date.now() + 300_000;
        let ended: Awaited<ReturnType<typeof getExecution>> | undefined;
        for (;;) {
          const [latest] = await listExecutions(env.ctx.db, key, 1);
          if (
            latest &&
            latest.executionId !== before?.executionId &&
            latest.kind === "event" &&
            ["succeeded", "failed"].includes(latest.status)
          ) {
            ended = await getExecution(env.ctx.db, latest.executionId);
            break;
          }
          if (Date.now() > deadline) throw new Error(`${change}: no event step ended within 300 s`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        if (ended?.status !== "succeeded")
          throw new Error(`${change}: the step ${ended?.status}: ${ended?.failureMessage}`);
        return {
          ms: (ended.finishedAt?.getTime() ?? Date.now()) - received,
          cpuMs: ((await worker.usage()).cpuSeconds - cpuBefore) * 1000,
          changes: (ended as unknown as { changes?: number }).changes ?? 0,
          whole: (ended.warnings ?? []).some(
            (w) => w.code === "event-whole-analysis" || w.code === "event-full-collection",
          ),
        };
      };
      const burst = change.includes("burst");
      // One step of each kind first, not counted (the burst excepted: it runs once): V8 compiles
      // a step's code over its first runs, once in a worker's life.
      if (!burst && warmUp) await step(counted);
      await measure(async () => {
        const times: number[] = [];
        const cpus: number[] = [];
        let changes = 0;
        let whole = false;
        for (let run = 0; run < (burst ? 1 : counted); run++) {
          const measured = await step(run);
          times.push(measured.ms);
          cpus.push(measured.cpuMs);
          changes = measured.changes || changes;
          whole ||= measured.whole;
        }
        rows.push({
          change,
          runs: times.length,
          p50Ms: quantile(times, 0.5),
          p95Ms: quantile(times, 0.95),
          maxMs: Math.max(...times),
          cpuMs: quantile(cpus, 0.5),
          changes,
          whole,
        });
        log(`events latency ${size}: ${change}: p50 ${(quantile(times, 0.5) / 1000).toFixed(1)} s`);
      });
    }
    return {
      size,
      quietSeconds,
      fullCpuMs,
      fullMs,
      firstFullCpuMs: cold.cpuMs,
      idleCpuMsPerSecond,
      keptPrincipals,
      rows,
    };
  } finally {
    await worker.stop();
    await fake.close();
  }
}

export function latencyTable(result: LatencyResult, principals: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `Event received → step ended (changes stored, alerts queued), ${principals.toLocaleString("en")} principals, quiet period ${result.quietSeconds} s. The full analysis of the same account in this run, the median of ${WARM_FULL_ANALYSES} after the worker's first (which also compiled its code: ${s(result.firstFullCpuMs)} of worker CPU): ${s(result.fullMs)}, ${s(result.fullCpuMs)} of worker CPU. Each change's steps after one not counted (the burst and the SCP: every step counted). The idle worker: ${result.idleCpuMsPerSecond.toFixed(1)} ms of CPU a second. ${result.keptPrincipals > 0 ? `The worker keeps its accounts' last steps (up to ${result.keptPrincipals.toLocaleString("en")} principals): each step after an account's first starts from the last.` : "The worker keeps no step (--events-kept 0): each step reads the stored snapshot back."}`,
    "",
    "| Change | Runs | p50 | p95 | max | Worker CPU per step (median) | CPU ratio to the full analysis | Fell back to whole |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of result.rows)
    lines.push(
      `| ${r.change} | ${r.runs} | ${s(r.p50Ms)} | ${s(r.p95Ms)} | ${s(r.maxMs)} | ${(r.cpuMs / 1000).toFixed(2)} s | ${(result.fullCpuMs / r.cpuMs).toFixed(1)}× | ${r.whole ? "yes" : "no"} |`,
    );
  return lines.join("\n");
}
