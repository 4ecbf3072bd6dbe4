import type { Execution } from "./bench-environment.ts";
import type { RssSample, WorkerLogLine } from "./worker-child.ts";
import type { HeapSample, WorkerUsage } from "./worker-process.ts";

/**
 * The phases of one execution, bounded by its row (started, finished) and its worker's log
 * lines ("collected", "reports written"):
 * - collection: credentials, collection from the fake, the snapshot stored;
 * - analysisAndWriting: the engine's analysis and every report file written;
 * - delivery: every object and the manifests uploaded, the execution recorded.
 */
export const PHASES = ["collection", "analysisAndWriting", "delivery"] as const;
export type PhaseName = (typeof PHASES)[number];

/** What one phase took: wall time, and the worker's memory and garbage collection in it. */
export interface PhaseStats {
  ms: number;
  /**
   * The worker's CPU in the phase (user + system seconds), from its cumulative CPU sampled every
   * 500 ms and interpolated at the phase's bounds.
   */
  cpuSeconds: number;
  /** Highest RSS sampled (bytes; 0 when no sample fell in the phase). */
  peakRss: number;
  /**
   * Lowest and highest V8 heap in use, and memory outside it (Buffers), sampled every 500 ms.
   * The lowest approaches the live heap: samples follow collections.
   */
  minHeap: number;
  peakHeap: number;
  peakExternal: number;
  /** Time in garbage collection, and how many major (mark-compact) collections. */
  gcMs: number;
  majorGcs: number;
}

export interface ExecutionPhases {
  /** Trigger → a worker took the job (includes the worker's polling interval). */
  queuedMs: number;
  /** Trigger → execution recorded succeeded, after its manifest. */
  totalMs: number;
  phases: Record<PhaseName, PhaseStats>;
}

const timeOf = (lines: readonly WorkerLogLine[], executionId: string, msg: string) => {
  const line = lines.findLast((l) => l.executionId === executionId && l.msg === msg);
  if (!line) throw new Error(`${executionId}: no '${msg}' log line`);
  return Date.parse(line.time);
};

/** The worker's cumulative CPU at `at`, interpolated between the samples around it. */
function cpuAt(samples: readonly HeapSample[], at: number): number {
  let before: HeapSample | undefined;
  for (const sample of samples) {
    if (sample.at > at) {
      if (!before) return sample.cpuSeconds;
      const share = (at - before.at) / (sample.at - before.at);
      return before.cpuSeconds + share * (sample.cpuSeconds - before.cpuSeconds);
    }
    before = sample;
  }
  return before?.cpuSeconds ?? 0;
}

export function phasesOf(
  execution: Execution,
  triggeredAt: number,
  worker: { lines: readonly WorkerLogLine[]; rss: readonly RssSample[]; usage: WorkerUsage },
): ExecutionPhases {
  const { executionId, startedAt, finishedAt } = execution;
  if (!startedAt || !finishedAt) throw new Error(`${executionId} has not ended`);
  const bounds = [
    startedAt.getTime(),
    timeOf(worker.lines, executionId, "collected"),
    timeOf(worker.lines, executionId, "reports written"),
    finishedAt.getTime(),
  ];
  const within = <T extends { at: number }>(items: readonly T[], i: number) =>
    items.filter((item) => item.at >= (bounds[i] ?? 0) && item.at <= (bounds[i + 1] ?? 0));
  const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
  const phases = Object.fromEntries(
    PHASES.map((name, i) => {
      const gc = within(worker.usage.gc, i);
      const heap = within(worker.usage.heap, i);
      const stats: PhaseStats = {
        ms: (bounds[i + 1] ?? 0) - (bounds[i] ?? 0),
        cpuSeconds:
          cpuAt(worker.usage.heap, bounds[i + 1] ?? 0) - cpuAt(worker.usage.heap, bounds[i] ?? 0),
        peakRss: max(within(worker.rss, i).map((s) => s.rss)),
        minHeap: heap.length > 0 ? Math.min(...heap.map((s) => s.heapUsed)) : 0,
        peakHeap: max(heap.map((s) => s.heapUsed)),
        peakExternal: max(heap.map((s) => s.external)),
        gcMs: gc.reduce((sum, event) => sum + event.ms, 0),
        majorGcs: gc.filter((event) => event.major).length,
      };
      return [name, stats];
    }),
  ) as Record<PhaseName, PhaseStats>;
  return {
    queuedMs: startedAt.getTime() - triggeredAt,
    totalMs: finishedAt.getTime() - triggeredAt,
    phases,
  };
}
