// Each size analysed by this tree's engine and by an earlier commit's, in the same run: fresh
// processes in turn (current, baseline, current, baseline, …) on the same snapshot, so that the
// load of a shared machine falls on both alike. Prints per size the median and range of each, the
// ratio of the medians, and the range of the ratios pair by pair.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { materializeBaseline } from "./baseline-tree.ts";
import { type AccountSize, generateAccount } from "./generate-account.ts";
import type { PhaseTimes } from "./time-analysis.ts";

export interface ComparisonOptions {
  ref: string;
  sizes: readonly AccountSize[];
  /** Pairs of runs per size. */
  pairs: (size: AccountSize) => number;
  digest: boolean;
}

interface Run extends PhaseTimes {
  /** The whole child process, as a worker starting cold would see it (tsx's loading included). */
  processMs: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const currentPackages = path.resolve(here, "..", "..");
const child = path.join(here, "time-analysis.ts");

function timeOnce(packages: string, snapshotFile: string, digest: boolean): Run {
  const start = performance.now();
  const out = spawnSync(
    process.execPath,
    [...process.execArgv, child, packages, snapshotFile, ...(digest ? ["--digest"] : [])],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  const processMs = performance.now() - start;
  const line = out.stdout.trim().split("\n").pop() ?? "";
  if (out.status !== 0 || !line.startsWith("{")) {
    throw new Error(`analysis of ${snapshotFile} by ${packages} failed:\n${out.stderr}`);
  }
  return { ...(JSON.parse(line) as PhaseTimes), processMs };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const range = (xs: readonly number[]) => [Math.min(...xs), Math.max(...xs)] as const;

/** The figures printed per size: label and how to read it from a run. */
const FIGURES: [string, (r: Run) => number][] = [
  ["fresh process: modules to last row, wall", (r) => r.importMs + r.totalMs],
  ["  engine modules loaded", (r) => r.importMs],
  ["  catalogue index", (r) => r.indexMs],
  ["  model and analyzeAccount", (r) => r.modelMs + r.analyzeMs],
  ["  principal rows", (r) => r.principalRowsMs],
  ["  resource rows", (r) => r.resourceRowsMs],
  ["index to last row, CPU (all threads)", (r) => r.totalCpuMs],
  ["whole process (tsx and snapshot too)", (r) => r.processMs],
];

function formatSize(
  name: string,
  label: string,
  current: readonly Run[],
  baseline: readonly Run[],
): string {
  const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
  const spread = (xs: readonly number[]) => {
    const [lo, hi] = range(xs);
    return `${ms(median(xs)).padStart(8)} [${ms(lo)}–${ms(hi)}]`;
  };
  const lines = [
    `${name}: current vs ${label}, ${current.length} alternated pairs`,
    `  ${"".padEnd(40)} ${"current, median [min–max]".padEnd(30)} ${"baseline".padEnd(30)} current ÷ baseline (per pair)`,
  ];
  for (const [figure, read] of FIGURES) {
    const a = current.map(read);
    const b = baseline.map(read);
    const perPair = a.map((x, i) => x / (b[i] as number));
    const [lo, hi] = range(perPair);
    lines.push(
      `  ${figure.padEnd(40)} ${spread(a).padEnd(30)} ${spread(b).padEnd(30)} ×${(median(a) / median(b)).toFixed(2)} (×${lo.toFixed(2)}–${hi.toFixed(2)})`,
    );
  }
  const rows = (r: Run | undefined) =>
    `${r?.principalRows} principal / ${r?.resourceRows} resource rows`;
  lines.push(`  rows: current ${rows(current[0])}; baseline ${rows(baseline[0])}`);
  return lines.join("\n");
}

/** Runs the comparison, printing each size as it ends. Returns false when a run failed. */
export function compareWithBaseline(options: ComparisonOptions): boolean {
  const baseline = materializeBaseline(options.ref, currentPackages);
  const work = mkdtempSync(path.join(tmpdir(), "sightline-engine-bench-"));
  const label = `${baseline.commit.slice(0, 7)} (${baseline.subject.slice(0, 60)})`;
  try {
    if (baseline.missing.length > 0) {
      console.log(
        `baseline ${label} declares dependencies not installed here: ${baseline.missing.join(", ")}`,
      );
    }
    let warmed = false;
    for (const size of options.sizes) {
      const snapshotFile = path.join(work, `${size.name}.json`);
      writeFileSync(snapshotFile, JSON.stringify(generateAccount(size)));
      if (!warmed) {
        // One untimed pair first: tsx compiles each tree's sources into its cache.
        timeOnce(currentPackages, snapshotFile, false);
        timeOnce(baseline.packages, snapshotFile, false);
        warmed = true;
      }
      const load = loadavg()[0] ?? 0;
      const current: Run[] = [];
      const earlier: Run[] = [];
      for (let i = 0; i < options.pairs(size); i++) {
        current.push(timeOnce(currentPackages, snapshotFile, false));
        earlier.push(timeOnce(baseline.packages, snapshotFile, false));
      }
      console.log(formatSize(size.name, label, current, earlier));
      if (options.digest) {
        // Untimed: hashing every row would weigh on the figures.
        const a = timeOnce(currentPackages, snapshotFile, true).digest;
        const b = timeOnce(baseline.packages, snapshotFile, true).digest;
        console.log(`  row digests: current ${a}, baseline ${b}${a === b ? " (the same)" : ""}`);
      }
      console.log(
        `  (machine load ${load.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end)`,
      );
    }
    return true;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return false;
  } finally {
    rmSync(work, { recursive: true, force: true });
    baseline.remove();
  }
}
