import { loadavg } from "node:os";
import {
  type AccessGraphStats,
  findResourceAccessPaths,
  shortestPathsTo,
  streamResourceAccessPaths,
} from "../src/index.ts";
import { LIMITS, type OrgName, percentile, pickTargets, setUp } from "./paths-targets.ts";
import { Random } from "./random.ts";

export interface LimitResult {
  limit: number;
  entries: number;
  ms: number;
  entriesPerSecond: number;
  /** Targets with at least 1,000 entries, and their time to the 1,000th (median, p95). */
  reached1000: number;
  first1000MedianMs: number;
  first1000P95Ms: number;
  ceilingHits: number;
}

export interface MeasureResult {
  org: OrgName;
  load: number;
  generateMs: number;
  modelMs: number;
  buildMs: number;
  buildCpuMs: number;
  modelHeapMiB: number;
  graphHeapMiB: number;
  peakRssMiB: number;
  graphologyMs: number;
  graphologyHeapMiB: number;
  stats: AccessGraphStats;
  targets: number;
  limits: LimitResult[];
  /** Endpoint 12 with 10 resources (STS, use-resource, 10 nodes, ceiling 10,000): per-query times. */
  query10P50Ms: number;
  query10P99Ms: number;
  query10Entries: number;
  shortestPathsMs: number;
  shortestPathsFound: number;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMiB = () => process.memoryUsage().heapUsed / 2 ** 20;

export function measure(org: OrgName): MeasureResult {
  const load = loadavg()[0] ?? 0;
  const setup = setUp(org);
  const targets = pickTargets(setup);
  // A running service is warm: let the JIT compile the walk before it is timed.
  for (const limit of LIMITS) measureLimit(setup, targets.slice(0, 10), limit);
  const limits = LIMITS.map((limit) => measureLimit(setup, targets, limit));
  const query = { service: "STS" as const, capabilities: ["use-resource" as const] };
  const rnd = new Random(11);
  const times: number[] = [];
  let query10Entries = 0;
  for (let q = 0; q < 200; q++) {
    const t0 = performance.now();
    for (let i = 0; i < 10; i++)
      query10Entries += findResourceAccessPaths(setup.graph, setup.model, rnd.pick(targets), query)
        .accessPaths.length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  // The report helper: the shortest way to one of 50 of the targets (stand-ins for IAM admins).
  const admins = new Set(targets.slice(0, Math.max(1, Math.floor(targets.length / 2))));
  const s0 = performance.now();
  const shortest = shortestPathsTo(setup.graph, admins);
  const shortestPathsMs = performance.now() - s0;
  gc();
  const graphHeap = heapMiB();
  const g0 = performance.now();
  const graphology = setup.graph.graph;
  const graphologyMs = performance.now() - g0;
  gc();
  return {
    org,
    load,
    generateMs: setup.generateMs,
    modelMs: setup.modelMs,
    buildMs: setup.buildMs,
    buildCpuMs: setup.buildCpuMs,
    modelHeapMiB: setup.modelHeapMiB,
    graphHeapMiB: setup.graphHeapMiB,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    graphologyMs,
    graphologyHeapMiB: graphology.order > 0 ? heapMiB() - graphHeap : 0,
    stats: setup.graph.stats,
    targets: targets.length,
    limits,
    query10P50Ms: percentile(times, 50),
    query10P99Ms: percentile(times, 99),
    query10Entries: query10Entries / times.length,
    shortestPathsMs,
    shortestPathsFound: shortest.size,
  };
}

function measureLimit(
  setup: ReturnType<typeof setUp>,
  targets: readonly string[],
  limit: number,
): LimitResult {
  let entries = 0;
  let ceilingHits = 0;
  const first1000: number[] = [];
  const t0 = performance.now();
  for (const target of targets) {
    const start = performance.now();
    const { paths } = streamResourceAccessPaths(setup.graph, setup.model, target, {
      service: "STS",
      capabilities: ["use-resource"],
      maxAccessPathNodes: limit,
    });
    let count = 0;
    let next = paths.next();
    while (!next.done) {
      if (++count === 1000) first1000.push(performance.now() - start);
      next = paths.next();
    }
    if (!next.value.complete) ceilingHits++;
    entries += count;
  }
  const ms = performance.now() - t0;
  first1000.sort((a, b) => a - b);
  return {
    limit,
    entries,
    ms,
    entriesPerSecond: (entries / ms) * 1000,
    reached1000: first1000.length,
    first1000MedianMs: percentile(first1000, 50),
    first1000P95Ms: percentile(first1000, 95),
    ceilingHits,
  };
}
