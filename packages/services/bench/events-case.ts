import { randomInt } from "node:crypto";
import type { CollectedAccount } from "@sightline/aws";
import { createDb, type Executor, finishExecution, insertExecution } from "@sightline/db";
import { type AccountSnapshot, createAccountModel } from "@sightline/engine";
// The engine's generator is bench code, not part of its package exports: imported by path.
import { ACCOUNT, generateAccount, SIZES } from "../../engine/bench/generate-account.ts";
import { recordAnalysisChanges } from "../src/changes/analysis-changes.ts";
import { recordIncrementalChanges } from "../src/changes/incremental-results.ts";
import { analyseForResults, reanalyseSnapshot } from "../src/results/results-input.ts";
import { ResultsRecorder } from "../src/results/results-recorder.ts";

/**
 * What an event step costs the worker beside a whole analysis of the same account, in one run:
 * the account's results stored whole once, then each kind of change the events name analysed
 * the event step's way (what it reaches remade, the rest copied in Postgres) and the whole way
 * (what the step would do without it). Collection is left out of both: the step reads a few
 * entities back, a full collection reads the account (see the pipeline bench).
 */

type Json = Record<string, unknown>;
type Details = { UserDetailList: Json[]; RoleDetailList: Json[]; Policies: Json[] };
const doc = (Statement: Json[]) => ({ Version: "2012-10-17", Statement });
const readAll = { Effect: "Allow", Action: "s3:GetObject", Resource: "*" };

/** The changes measured, as edits of the account's snapshot. */
const CHANGES: Record<string, (s: AccountSnapshot, d: Details) => string> = {
  "a user's inline policy": (_s, d) => {
    const user = d.UserDetailList[7] as Json;
    user.UserPolicyList = [{ PolicyName: "bench", PolicyDocument: doc([readAll]) }];
    return String(user.Arn);
  },
  "a user made an admin": (_s, d) => {
    const user = d.UserDetailList[9] as Json;
    user.UserPolicyList = [
      {
        PolicyName: "admin",
        PolicyDocument: doc([{ Effect: "Allow", Action: "*", Resource: "*" }]),
      },
    ];
    return String(user.Arn);
  },
  "a managed policy on ~500 principals": (s, d) => {
    // The managed policy whose attachments (through groups too) come nearest 500 principals.
    const model = createAccountModel(s);
    const counts = new Map<string, number>();
    for (const p of model.principals.values())
      for (const policy of p.identityPolicies)
        if (policy.id.includes(":policy/")) counts.set(policy.id, (counts.get(policy.id) ?? 0) + 1);
    const [arn, count] = [...counts].sort(
      (a, b) => Math.abs(a[1] - 500) - Math.abs(b[1] - 500),
    )[0] ?? ["", 0];
    const policy = d.Policies.find((p) => p.Arn === arn) as Json;
    policy.PolicyVersionList = [
      { VersionId: "v9", IsDefaultVersion: true, Document: doc([readAll]) },
    ];
    policy.DefaultVersionId = "v9";
    return `${arn} (${count} principals)`;
  },
  "a role's trust policy": (_s, d) => {
    const role = d.RoleDetailList[11] as Json;
    role.AssumeRolePolicyDocument = doc([
      {
        Effect: "Allow",
        Principal: { AWS: "arn:aws:iam::444455556666:root" },
        Action: "sts:AssumeRole",
      },
    ]);
    return String(role.Arn);
  },
  "a bucket policy": (s) => {
    const arn = "arn:aws:s3:::data-3";
    s.resourcePolicies = {
      ...s.resourcePolicies,
      [arn]: doc([
        {
          Effect: "Allow",
          Principal: { AWS: "arn:aws:iam::444455556666:root" },
          Action: "s3:GetObject",
          Resource: `${arn}/*`,
        },
      ]),
    };
    return arn;
  },
  "an SCP": (s) => {
    s.organization = {
      ...s.organization,
      serviceControlPolicies: [
        ...(s.organization?.serviceControlPolicies ?? []),
        {
          target: ACCOUNT,
          policies: [
            {
              id: "p-bench",
              document: doc([{ Effect: "Deny", Action: "s3:DeleteBucket", Resource: "*" }]),
            },
          ],
        },
      ],
    };
    return "a new SCP on the account";
  },
  "a 200-event burst (200 users' inline policies)": (_s, d) => {
    for (const user of d.UserDetailList.slice(100, 300))
      user.UserPolicyList = [{ PolicyName: "burst", PolicyDocument: doc([readAll]) }];
    return "users 100–299";
  },
};

const collection = (snapshot: AccountSnapshot): CollectedAccount => ({
  snapshot,
  metadata: {
    accountId: ACCOUNT,
    partition: "aws",
    callerArn: `arn:aws:sts::${ACCOUNT}:assumed-role/auditor/bench`,
    regions: ["us-east-1"],
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    roleLastUsed: {},
    buckets: {},
    keys: {},
  },
  warnings: [],
});

export interface EventCaseResult {
  change: string;
  what: string;
  how: string;
  stepMs: number;
  stepCpuMs: number;
  wholeMs: number;
  wholeCpuMs: number;
  changes: number;
  peakRssMiB: number;
}

/** Wall time, this process's CPU and its peak RSS while `work` runs. */
async function measured<T>(work: () => Promise<T>) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const startRss = process.memoryUsage.rss();
  let peak = startRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const value = await work();
    const used = process.cpuUsage(cpu);
    return {
      value,
      ms: performance.now() - start,
      cpuMs: (used.user + used.system) / 1000,
      /** What the work added to the process's RSS at its peak. */
      peakRssMiB: (Math.max(peak, process.memoryUsage.rss()) - startRss) / 2 ** 20,
    };
  } finally {
    clearInterval(sampler);
  }
}

export async function runEvents(
  databaseUrl: string,
  size: "medium" | "large",
  log: (line: string) => void,
): Promise<EventCaseResult[]> {
  const handle = createDb(databaseUrl, { maxConnections: 4 });
  const db: Executor = handle.db;
  const customerId = `C${randomInt(100_000, 1_000_000)}`;
  let sequence = 0;
  const execution = async () => {
    const row = {
      executionId: `event-${customerId}-${ACCOUNT}-2026-11-29_${String(sequence++).padStart(4, "0")}`,
      kind: "event" as const,
      customerId,
      accountId: ACCOUNT,
      provider: "aws",
      authMethod: "config" as const,
    };
    const inserted = await insertExecution(db, { execution: row }, async () => {});
    if (inserted.kind !== "inserted")
      throw new Error(`${row.executionId}: ${JSON.stringify(inserted)}`);
    return { ...row, analysisTime: new Date() };
  };
  // Only the first succeeds: each change is measured against it (an account has one active
  // execution of a kind at a time, so the others end as failed).
  const end = (executionId: string, succeeded: boolean) =>
    succeeded
      ? finishExecution(db, executionId, { status: "succeeded", reportKeys: [], warnings: [] })
      : finishExecution(db, executionId, {
          status: "failed",
          failure: { code: "BENCH", message: "measured against the first analysis" },
          warnings: [],
        });
  const whole = async (snapshot: AccountSnapshot, finish: boolean) => {
    const key = await execution();
    const result = await recordAnalysisChanges({
      db,
      execution: key,
      results: new ResultsRecorder(analyseForResults(collection(snapshot))),
      reanalyse: reanalyseSnapshot,
      dir: "/nonexistent-no-reports",
      formats: [],
    });
    await end(key.executionId, finish);
    return { key, result };
  };
  try {
    const base = generateAccount(SIZES[size]);
    log(`events ${size}: the account stored whole`);
    const first = await whole(base, true);
    const results: EventCaseResult[] = [];
    for (const [change, edit] of Object.entries(CHANGES)) {
      const after = structuredClone(base);
      const what = edit(after, after.authorizationDetails as Details);
      const key = await execution();
      const step = await measured(() =>
        recordIncrementalChanges({
          db,
          execution: key,
          previousExecutionId: first.key.executionId,
          before: collection(base),
          after: collection(after),
          fenced: (write) => write(db),
        }),
      );
      await end(key.executionId, false);
      const full = await measured(() => whole(after, false));
      const outcome = step.value;
      results.push({
        change,
        what,
        how:
          outcome.kind === "stepped"
            ? `${outcome.remade.principals} principals, ${outcome.remade.resources} resources remade, ${outcome.remade.patched} patched`
            : `whole: ${outcome.reason}`,
        // A step that falls back analyses the account whole: what the whole analysis costs.
        stepMs: outcome.kind === "stepped" ? step.ms : step.ms + full.ms,
        stepCpuMs: outcome.kind === "stepped" ? step.cpuMs : step.cpuMs + full.cpuMs,
        wholeMs: full.ms,
        wholeCpuMs: full.cpuMs,
        changes:
          outcome.kind === "stepped"
            ? outcome.changes.counts.changes
            : full.value.result.counts.changes,
        peakRssMiB: step.peakRssMiB,
      });
      log(
        `events ${size}: ${change}: step ${step.cpuMs.toFixed(0)} ms CPU, whole ${full.cpuMs.toFixed(0)} ms CPU`,
      );
    }
    return results;
  } finally {
    await handle.close();
  }
}

export function eventsTable(
  size: string,
  principals: number,
  rows: readonly EventCaseResult[],
): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const lines = [
    `| Change (${size}, ${principals.toLocaleString("en")} principals) | Event step: wall / worker CPU | Whole analysis: wall / worker CPU | CPU ratio | Changes | RSS the step added (peak) | What the step did |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of rows)
    lines.push(
      `| ${r.change} (${r.what}) | ${s(r.stepMs)} / ${s(r.stepCpuMs)} | ${s(r.wholeMs)} / ${s(r.wholeCpuMs)} | ${r.how.startsWith("whole") ? "1× (analysed whole)" : `${(r.wholeCpuMs / r.stepCpuMs).toFixed(1)}×`} | ${r.changes} | ${r.peakRssMiB.toFixed(0)} MiB | ${r.how} |`,
    );
  return lines.join("\n");
}
