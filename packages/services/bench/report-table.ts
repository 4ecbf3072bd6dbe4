import type { FleetResult } from "./fleet-case.ts";
import type { MachineLoad } from "./machine-load.ts";
import { PHASES, type PhaseName } from "./phases.ts";
import type { SingleAccountResult } from "./single-account-case.ts";
import type { UploadResult } from "./upload-process.ts";
import type { WritersResult } from "./writers-process.ts";

const GIB = 2 ** 30;
const MIB = 2 ** 20;
/** The issue's aims: trigger → manifest, and memory per worker. */
export const AIMS = { medium: 15_000, large: 60_000, memoryBytes: 2 * GIB } as const;

export const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const mib = (bytes: number) =>
  bytes < 10 * MIB
    ? `${(bytes / MIB).toFixed(1)} MiB`
    : `${Math.round(bytes / MIB).toLocaleString("en")} MiB`;
export const n = (value: number) => Math.round(value).toLocaleString("en");
export const ratio = (value: number, aim: number) => `${(value / aim).toFixed(2)}×`;
export const load = (m: MachineLoad) =>
  `${m.load1.toFixed(1)} (others ${m.otherCores.toFixed(1)} of ${m.busyCores.toFixed(1)} busy cores)`;
const PHASE_LABELS: Record<PhaseName, string> = {
  collection: "collection",
  analysisAndWriting: "analysis+writing",
  delivery: "delivery",
};

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export function singleAccountTable(results: readonly SingleAccountResult[]): string {
  return table(
    [
      "account",
      "report rows",
      "trigger → manifest (aim)",
      "queued",
      "collection",
      "analysis+writing",
      "delivery",
      "rows/s",
      "delivered",
      "worker peak RSS (of 2 GiB)",
      "worker CPU",
      "load 1 min",
    ],
    results.map((r) => {
      const rows = Object.values(r.rows).reduce((a, b) => a + b, 0);
      const aim = r.size === "large" ? AIMS.large : AIMS.medium;
      const { phases } = r.timing;
      return [
        `${caseLabel(r)} (${n(r.principals)} principals)`,
        n(rows),
        `**${s(r.timing.totalMs)}** (${ratio(r.timing.totalMs, aim)} of ${s(aim)})`,
        s(r.timing.queuedMs),
        s(phases.collection.ms),
        s(phases.analysisAndWriting.ms),
        s(phases.delivery.ms),
        `${n(rows / (phases.analysisAndWriting.ms / 1000))} (${n(rows / (r.timing.totalMs / 1000))} end to end)`,
        `${r.objects} objects, ${mib(r.deliveredBytes)} (${mib(r.uploadedBytes)} uploaded)`,
        `${mib(r.peakRssBytes)} (${ratio(r.peakRssBytes, AIMS.memoryBytes)})`,
        `${r.workerCpuSeconds.toFixed(0)} s`,
        load(r.machine),
      ];
    }),
  );
}

/** The case's account, and what it writes besides the formats. */
export const caseLabel = (r: SingleAccountResult) => `${r.size}${r.workbook ? " + workbook" : ""}`;

export function rowsTable(results: readonly SingleAccountResult[]): string {
  const types = Object.keys(results[0]?.rows ?? {});
  const formats = ["csv", "jsonl", "parquet", "xlsx"] as const;
  return table(
    ["account", "formats", ...types, ...formats.map((f) => `${f} bytes`)],
    results.map((r) => [
      caseLabel(r),
      r.formats.join(", "),
      ...types.map((t) => n(r.rows[t as keyof typeof r.rows] ?? 0)),
      ...formats.map((f) => mib(r.bytesPerFormat[f]?.bytes ?? 0)),
    ]),
  );
}

export function phaseTable(results: readonly SingleAccountResult[]): string {
  return table(
    [
      "account",
      "phase",
      "wall",
      "worker CPU",
      "peak RSS",
      "V8 heap in use, min – max",
      "peak external",
      "GC pauses (major GCs)",
    ],
    results.flatMap((r) =>
      PHASES.map((name) => {
        const p = r.timing.phases[name];
        const share = p.ms > 0 ? ` = ${Math.round((100 * p.gcMs) / p.ms)} %` : "";
        return [
          caseLabel(r),
          PHASE_LABELS[name],
          s(p.ms),
          `${p.cpuSeconds.toFixed(1)} s`,
          mib(p.peakRss),
          `${mib(p.minHeap)} – ${mib(p.peakHeap)}`,
          mib(p.peakExternal),
          `${s(p.gcMs)}${share} (${p.majorGcs})`,
        ];
      }),
    ),
  );
}

export function writersTable(size: string, w: WritersResult & { machine: MachineLoad }): string {
  const base = w.passes.find((pass) => pass.name === "rows");
  const rows = w.passes.map((pass) => {
    const alone =
      base && pass !== base && pass.seconds > base.seconds
        ? n(pass.rows / (pass.seconds - base.seconds))
        : "";
    return [
      pass.name === "rows" ? "rows built, none written" : pass.name,
      n(pass.rows),
      s(pass.seconds * 1000),
      n(pass.rows / pass.seconds),
      alone,
      pass.bytes ? mib(pass.bytes) : "",
      pass.bytes ? `${(pass.bytes / MIB / pass.seconds).toFixed(1)} MiB/s` : "",
      pass.peakHeap ? mib(pass.peakHeap) : "",
    ];
  });
  const { heap } = w;
  return [
    `${size}: analysis ${s(w.analysisSeconds * 1000)}, peak RSS ${mib(w.maxRssBytes)}, load ${load(w.machine)}`,
    `heap held (after a full GC): collected snapshot ${mib(heap.snapshot)}, + model and analysis ${mib(heap.analysis)}, + after one pass over every row ${mib(heap.afterRows)}`,
    "",
    table(
      [
        "pass (all four reports)",
        "rows",
        "wall",
        "rows/s",
        "writer alone, rows/s",
        "size",
        "output",
        "peak V8 heap",
      ],
      rows,
    ),
  ].join("\n");
}

/** CPU seconds the workers spent per analysis. */
const cpuPerAnalysis = (f: FleetResult) =>
  f.workers.reduce((sum, w) => sum + w.cpuSeconds, 0) / Math.max(1, f.accounts);

/**
 * The fleet runs, one row per worker count: throughput, the workers' CPU per analysis, and both
 * extrapolated to 1,000 accounts; then the ratio of each run's throughput to the first's.
 */
export function fleetTable(runs: readonly FleetResult[]): string {
  const rows = runs.map((f) => [
    `${f.accounts} × ${f.size}`,
    String(f.workers.length),
    `**${s(f.totalMs)}**`,
    `**${f.analysesPerMinute.toFixed(1)}**`,
    `${cpuPerAnalysis(f).toFixed(2)} s`,
    `${(1000 / f.analysesPerMinute).toFixed(0)} min`,
    `${((1000 * cpuPerAnalysis(f)) / 60).toFixed(0)} min`,
    `${s(f.latencyMedianMs)} / ${s(f.latencyMaxMs)}`,
    mib(f.deliveredBytes),
    f.workers
      .map((w) => `${w.name}: ${w.analyses}, ${mib(w.peakRssBytes)}, ${w.cpuSeconds.toFixed(0)} s`)
      .join("; "),
    load(f.machine),
  ]);
  const first = runs[0];
  const ratios =
    first && runs.length > 1
      ? `\n\n${runs
          .slice(1)
          .map(
            (f) =>
              `${f.workers.length} workers / ${first.workers.length}: **${(f.analysesPerMinute / first.analysesPerMinute).toFixed(2)}×** the analyses per minute`,
          )
          .join("; ")}.`
      : "";
  return `${table(
    [
      "accounts",
      "workers",
      "total",
      "analyses/min",
      "worker CPU / analysis",
      "1,000 accounts at this rate",
      "1,000 accounts of one worker's CPU",
      "trigger → manifest median / max",
      "delivered",
      "per worker: analyses, peak RSS, CPU",
      "load 1 min",
    ],
    rows,
  )}${ratios}`;
}

export function uploadTable(results: readonly UploadResult[]): string {
  return table(
    ["live heap", "wall", "MiB/s", "CPU", "major GCs", "GC pauses"],
    results.map((r) => [
      mib(r.liveHeapBytes),
      s(r.seconds * 1000),
      (1024 / r.seconds).toFixed(0),
      `${r.cpuSeconds.toFixed(1)} s`,
      String(r.majorGcs),
      s(r.gcPauseMs),
    ]),
  );
}
