/**
 * The writers measured one format at a time on the real rows of an analysed account: forked by
 * `writers-case.ts` with SIGHTLINE_BENCH_WRITERS = JSON of { databaseUrl, executionId }. Reads
 * the snapshot that execution stored, analyses it once, then makes one pass over the four
 * reports per format (and one building the rows without writing them). Prints JSON on stdout.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { CollectedAccount } from "@sightline/aws";
import { createDb, getSnapshotOfExecution } from "@sightline/db";
import {
  analyzeAccount,
  buildAccessGraph,
  createAccountModel,
  iamAdminPaths,
} from "@sightline/engine";
import {
  allResources,
  createReportContext,
  principalAccessReportRows,
  principalReportRows,
  REPORT_FORMATS,
  reportInputOf,
  resourceAccessReportRows,
  resourceExpander,
  resourceReportRows,
  writeAccountReports,
} from "@sightline/reports";

export interface WriterPass {
  /** A format, or `rows`: the rows built and dropped. */
  name: string;
  seconds: number;
  rows: number;
  bytes: number;
  /** Highest V8 heap in use sampled during the pass (bytes; 0 for the synchronous `rows`). */
  peakHeap: number;
}

/** V8 heap held after a full collection (bytes): what each stage keeps alive. */
export interface HeldHeap {
  /** The collected account, parsed from the stored snapshot. */
  snapshot: number;
  /** The engine's model and analysis, on top of the snapshot. */
  analysis: number;
  /** What iterating every summary once left on top of that (caches). */
  afterRows: number;
}

export interface WritersResult {
  analysisSeconds: number;
  heap: HeldHeap;
  passes: WriterPass[];
  maxRssBytes: number;
  cpuSeconds: number;
}

const { databaseUrl, executionId } = JSON.parse(process.env.SIGHTLINE_BENCH_WRITERS ?? "{}") as {
  databaseUrl: string;
  executionId: string;
};
/** Heap in use after a full collection (the child runs with --expose-gc). */
function heldHeap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}
const baseline = heldHeap();
const database = createDb(databaseUrl, { maxConnections: 1 });
const stored = await getSnapshotOfExecution(database.db, executionId);
await database.close();
if (!stored) throw new Error(`no snapshot of ${executionId}`);
const collected = JSON.parse(
  (await promisify(gunzip)(stored.data)).toString("utf8"),
) as CollectedAccount;
const { metadata } = collected;
const analysisTime = new Date();
const withSnapshot = heldHeap();

let started = performance.now();
const model = createAccountModel(collected.snapshot);
const analysis = analyzeAccount(model, { accounts: [metadata.accountId] });
const graph = buildAccessGraph(model);
const analysisSeconds = (performance.now() - started) / 1000;
const withAnalysis = heldHeap();

/** The rows `writeAccountReports` writes, built the same way, counted and dropped. */
function countRows(): number {
  const context = createReportContext(
    reportInputOf(analysis, metadata, analysisTime, iamAdminPaths(graph, analysis.principals)),
  );
  const roles = analysis.principals.filter((p) => p.principalType === "IAMRole");
  const expandResourcePattern = resourceExpander([
    ...Object.keys(metadata.buckets),
    ...Object.keys(metadata.keys),
    ...roles.map((p) => p.principalArn),
  ]);
  let rows = 0;
  for (const source of [
    principalReportRows(analysis.principals, context),
    resourceReportRows(allResources(analysis, metadata), context),
    principalAccessReportRows(analysis.principalAccessSummaries(), context, {
      expandResourcePattern,
    }),
    resourceAccessReportRows(analysis.resourceAccessSummaries(), context),
  ] as Iterable<unknown>[])
    for (const _ of source) rows++;
  return rows;
}

const passes: WriterPass[] = [];
started = performance.now();
const rows = countRows();
const seconds = (performance.now() - started) / 1000;
passes.push({ name: "rows", seconds, rows, bytes: 0, peakHeap: 0 });
const afterRows = heldHeap();
let peakHeap = 0;
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 250);
for (const format of REPORT_FORMATS) {
  const dir = await mkdtemp(path.join(tmpdir(), `sightline-bench-${format}-`));
  heldHeap();
  peakHeap = 0;
  started = performance.now();
  const { reports } = await writeAccountReports({
    model,
    analysis,
    graph,
    metadata,
    analysisTime,
    dir,
    formats: [format],
  });
  const seconds = (performance.now() - started) / 1000;
  await rm(dir, { recursive: true, force: true });
  const files = reports.flatMap((report) => report.files);
  passes.push({
    name: format,
    seconds,
    rows: files.reduce((sum, file) => sum + file.rows, 0),
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    peakHeap,
  });
}
clearInterval(sampler);
const usage = process.resourceUsage();
const result: WritersResult = {
  analysisSeconds,
  heap: {
    snapshot: withSnapshot - baseline,
    analysis: withAnalysis - withSnapshot,
    afterRows: afterRows - withAnalysis,
  },
  passes,
  maxRssBytes: usage.maxRSS * 1024,
  cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
