import { randomInt } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createDb, type Database, finishExecution, insertExecution } from "@sightline/db";
import { type AccountSnapshot, analyzeAccount, createAccountModel } from "@sightline/engine";
// The engine's generator is bench code, not part of its package exports: imported by path.
import { ACCOUNT, generateAccount, SIZES } from "../../engine/bench/generate-account.ts";
import { accountPrincipals, whoCan } from "../src/account-access/account-access.ts";
import {
  principalsOf,
  resourcesOf,
  storeAnalysisResults,
} from "../src/changes/analysis-changes.ts";
import { comparePrincipals, compareResources } from "../src/changes/compare-results.ts";
import { type AnalysisForResults, ResultsRecorder } from "../src/results/results-recorder.ts";
import { changeOnePercentOf, type SyntheticSize } from "./synthetic-model.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export interface ChangesResult {
  size: SyntheticSize;
  principals: number;
  changedPrincipals: number;
  /**
   * Storing the first analysis's results with a pass of its own over the engine's rows (encode,
   * deflate, insert): wall time and this process's CPU.
   */
  storeMs: number;
  storeCpuMs: number;
  /**
   * The second, as the worker stores it: the records built while the reports read the rows. The
   * CPU the reports' reading costs alone, through the recorder, and the store after it; what the
   * store adds to the worker is the difference plus the store.
   */
  readCpuMs: number;
  recordedReadCpuMs: number;
  storeAfterReadCpuMs: number;
  storedBytes: number;
  compareMs: number;
  changes: number;
  /** Heap in use after both analyses were dropped (a full GC), and the peak while comparing. */
  heapBefore: number;
  peakHeapDuringCompare: number;
  peakRssDuringCompare: number;
  /** The API's reads of the stored results: a page of 1,000 principals, and who can reach a bucket. */
  principalsPageMs: number;
  whoCanMs: number;
  whoCanHolders: number;
}

/** `snapshot` with 1% of its principals changed (`changeOnePercentOf`). */
function changeOnePercent(snapshot: AccountSnapshot): {
  snapshot: AccountSnapshot;
  changed: number;
} {
  const copy = structuredClone(snapshot);
  return { snapshot: copy, changed: changeOnePercentOf(copy.authorizationDetails) };
}

const input = (snapshot: AccountSnapshot): AnalysisForResults => ({
  analysis: analyzeAccount(createAccountModel(snapshot), { accounts: [ACCOUNT] }),
  principalDetails: () => ({ credentials: {} }),
  resourceDetails: (arn) => ({ name: arn.slice(arn.lastIndexOf(":") + 1), tags: {} }),
});

/**
 * Two analyses of the synthetic account, the second with 1% of its principals changed, stored
 * as the worker stores them; then compared from the store page by page, as the worker compares,
 * with neither analysis in memory: what it takes, and the heap while comparing.
 */
export async function runChanges(databaseUrl: string, size: SyntheticSize): Promise<ChangesResult> {
  const handle = createDb(databaseUrl, { maxConnections: 2 });
  const db = handle.db;
  const customerId = `C${randomInt(100_000, 1_000_000)}`;
  const executions = ["BASE", "NEXT"].map((suffix, i) => ({
    executionId: `ondemand-${customerId}-${ACCOUNT}-2026-01-0${i + 1}_${suffix}`,
    customerId,
    accountId: ACCOUNT,
    provider: "aws",
    analysisTime: new Date(Date.UTC(2026, 0, 1 + i)),
  }));
  try {
    const storeMs: number[] = [];
    const storeCpuMs: number[] = [];
    let read2Cpu = 0;
    let recordedReadCpu = 0;
    let principals = 0;
    let changedPrincipals = 0;
    // Each analysis is made, stored and dropped in turn: the comparison starts with neither.
    for (const i of [0, 1]) {
      const base = generateAccount(SIZES[size]);
      const next = i === 0 ? undefined : changeOnePercent(base);
      const snapshot = next ? next.snapshot : base;
      changedPrincipals = next?.changed ?? 0;
      const execution = executions[i] as (typeof executions)[number];
      await insertExecution(
        db,
        { execution: { ...execution, kind: "ondemand", authMethod: "config" } },
        async () => {},
      );
      const analysed = input(snapshot);
      const recorder = new ResultsRecorder(analysed);
      if (i === 1) {
        const { analysis } = analysed;
        const read = (a: typeof analysis) => {
          let rows = 0;
          for (const _ of a.principalAccessSummaries()) rows++;
          for (const _ of a.resourceAccessSummaries()) rows++;
          return rows;
        };
        read(analysis); // The engine's first reading fills its caches: the reports' isn't first.
        read2Cpu = cpuMs(() => read(analysis));
        recordedReadCpu = cpuMs(() => read(recorder.observed()));
      }
      const started = performance.now();
      const cpu = process.cpuUsage();
      const counts = await storeAnalysisResults(db, execution, recorder);
      storeMs.push(performance.now() - started);
      const spent = process.cpuUsage(cpu);
      storeCpuMs.push((spent.user + spent.system) / 1000);
      principals = counts.principals;
      await finishExecution(db, execution.executionId, {
        status: "succeeded",
        reportKeys: [],
        warnings: [],
      });
    }
    const [{ bytes } = { bytes: 0 }] = (await db.execute(
      `select (select coalesce(sum(length(data)), 0) from analysis_principals where execution_id = '${executions[1]?.executionId}') + (select coalesce(sum(length(data)), 0) from analysis_resources where execution_id = '${executions[1]?.executionId}') as bytes`,
    )) as unknown as { bytes: number }[];
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peakHeap = Math.max(peakHeap, usage.heapUsed);
      peakRss = Math.max(peakRss, usage.rss);
    }, 20);
    const context = {
      previousExecutionId: executions[0]?.executionId ?? "",
      executionId: executions[1]?.executionId ?? "",
      confidentialValues: new Set(["confidential", "restricted"]),
    };
    const started = performance.now();
    let changes = 0;
    for await (const _ of comparePrincipals(
      context,
      principalsOf(db, context.previousExecutionId),
      principalsOf(db, context.executionId),
    ))
      changes++;
    for await (const _ of compareResources(
      context,
      resourcesOf(db, context.previousExecutionId),
      resourcesOf(db, context.executionId),
    ))
      changes++;
    const compareMs = performance.now() - started;
    clearInterval(sampler);
    const account = { customerId, accountId: ACCOUNT };
    let readStarted = performance.now();
    const page = await accountPrincipals(db, account, { limit: 1000 });
    const principalsPageMs = performance.now() - readStarted;
    if (page.principals.length !== 1000)
      throw new Error("the page holds fewer than 1,000 principals");
    const bucket = await firstBucket(db, context.executionId);
    readStarted = performance.now();
    const holders = await whoCan(db, account, { resourceArn: bucket });
    const whoCanMs = performance.now() - readStarted;
    return {
      principalsPageMs,
      whoCanMs,
      whoCanHolders: holders.principals.length,
      size,
      principals,
      changedPrincipals,
      storeMs: storeMs[0] ?? 0,
      storeCpuMs: storeCpuMs[0] ?? 0,
      readCpuMs: read2Cpu,
      recordedReadCpuMs: recordedReadCpu,
      storeAfterReadCpuMs: storeCpuMs[1] ?? 0,
      storedBytes: Number(bytes),
      compareMs,
      changes,
      heapBefore,
      peakHeapDuringCompare: peakHeap,
      peakRssDuringCompare: peakRss,
    };
  } finally {
    await db.execute(`delete from executions where customer_id = '${customerId}'`);
    await handle.close();
  }
}

/** The stored bucket reached by the most entries (its data is the longest). */
async function firstBucket(db: Database, executionId: string): Promise<string> {
  const [row] = (await db.execute(
    `select resource_arn from analysis_resources where execution_id = '${executionId}' and resource_arn like 'arn:aws:s3:::%' order by length(data) desc limit 1`,
  )) as unknown as { resource_arn: string }[];
  if (!row) throw new Error("no bucket stored");
  return row.resource_arn;
}

function cpuMs(work: () => unknown): number {
  const cpu = process.cpuUsage();
  work();
  const spent = process.cpuUsage(cpu);
  return (spent.user + spent.system) / 1000;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function changesTable(r: ChangesResult): string {
  return [
    "| account | principals changed | store with its own pass: wall, CPU | CPU the store adds beside the reports (reading alone → through the recorder, + store) | stored (second) | compare | changes | heap before → peak while comparing | RSS peak while comparing |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${r.size}, ${r.principals} principals | ${r.changedPrincipals} | ${s(r.storeMs)}, ${s(r.storeCpuMs)} | **${s(r.recordedReadCpuMs - r.readCpuMs + r.storeAfterReadCpuMs)}** (${s(r.readCpuMs)} → ${s(r.recordedReadCpuMs)}, + ${s(r.storeAfterReadCpuMs)}) | ${mib(r.storedBytes)} | ${s(r.compareMs)} | ${r.changes} | ${mib(r.heapBefore)} → ${mib(r.peakHeapDuringCompare)} | ${mib(r.peakRssDuringCompare)} |`,
    "",
    "| API read of the stored results | time |",
    "|---|---|",
    `| principals, a page of 1,000 (\`GET …/principals?limit=1000\`) | ${ms(r.principalsPageMs)} |`,
    `| who can reach the most-reached bucket (${r.whoCanHolders} entries, \`GET …/who-can\`) | ${ms(r.whoCanMs)} |`,
  ].join("\n");
}
