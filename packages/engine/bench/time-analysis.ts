// One timed analysis of a stored snapshot by the engine of a given tree, in a process of its
// own: the child of the baseline comparison (bench/compare-baseline.ts), run alternately for the
// current tree and an earlier commit's. It reads the engine through the tree's sources, so any
// commit whose engine exports `analyzeAccount`, `createAccountModel` and `ActionIndex` can be
// timed on the same snapshot.
//   tsx --conditions=@sightline/source bench/time-analysis.ts <packages dir> <snapshot.json> [--digest]
// Prints one JSON line of `PhaseTimes`.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AccountSnapshot } from "../src/index.ts";

/** Milliseconds of each phase, wall and CPU (all threads, GC included). */
export interface PhaseTimes {
  /** Loading the engine's modules (the capability catalogue's JSON included). */
  importMs: number;
  /** `listAwsActions()` and the `ActionIndex` over it: paid once per process. */
  indexMs: number;
  indexCpuMs: number;
  /** `createAccountModel` of the snapshot. */
  modelMs: number;
  /** `analyzeAccount` given the index built above. */
  analyzeMs: number;
  analyzeCpuMs: number;
  /** One pass over the principal rows, then one over the resource rows. */
  principalRowsMs: number;
  resourceRowsMs: number;
  /** Index, model, analysis and both passes: what a fresh worker pays for the account. */
  totalMs: number;
  totalCpuMs: number;
  principalRows: number;
  resourceRows: number;
  digest?: string;
}

interface Engine {
  ActionIndex: new () => unknown;
  createAccountModel(snapshot: AccountSnapshot): unknown;
  analyzeAccount(
    model: unknown,
    options: { actionIndex: unknown },
  ): {
    principalAccessSummaries(): Iterable<unknown>;
    resourceAccessSummaries(): Iterable<unknown>;
  };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function timeAnalysis(packages: string, snapshotFile: string, withDigest: boolean) {
  const snapshot = JSON.parse(readFileSync(snapshotFile, "utf8")) as AccountSnapshot;
  const source = (pkg: string) => pathToFileURL(path.join(packages, pkg, "src", "index.ts")).href;
  const i0 = performance.now();
  const capabilities = (await import(source("capabilities"))) as { listAwsActions(): unknown[] };
  const engine = (await import(source("engine"))) as Engine;
  const t0 = performance.now();
  const c0 = cpuMs();
  capabilities.listAwsActions();
  const index = new engine.ActionIndex();
  const t1 = performance.now();
  const c1 = cpuMs();
  const model = engine.createAccountModel(snapshot);
  const t2 = performance.now();
  const c2 = cpuMs();
  const analysis = engine.analyzeAccount(model, { actionIndex: index });
  const t3 = performance.now();
  const c3 = cpuMs();
  let principalRows = 0;
  for (const _ of analysis.principalAccessSummaries()) principalRows++;
  const t4 = performance.now();
  let resourceRows = 0;
  for (const _ of analysis.resourceAccessSummaries()) resourceRows++;
  const t5 = performance.now();
  const c5 = cpuMs();
  const times: PhaseTimes = {
    importMs: t0 - i0,
    indexMs: t1 - t0,
    indexCpuMs: c1 - c0,
    modelMs: t2 - t1,
    analyzeMs: t3 - t2,
    analyzeCpuMs: c3 - c2,
    principalRowsMs: t4 - t3,
    resourceRowsMs: t5 - t4,
    totalMs: t5 - t0,
    totalCpuMs: c5 - c0,
    principalRows,
    resourceRows,
  };
  if (withDigest) {
    const hash = createHash("sha256");
    for (const row of analysis.principalAccessSummaries()) hash.update(`${JSON.stringify(row)}\n`);
    for (const row of analysis.resourceAccessSummaries()) hash.update(`${JSON.stringify(row)}\n`);
    times.digest = hash.digest("hex").slice(0, 16);
  }
  return times;
}

const [packages, snapshotFile] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (!packages || !snapshotFile) {
  console.error("usage: time-analysis.ts <packages dir> <snapshot.json> [--digest]");
  process.exit(2);
}
const times = await timeAnalysis(
  path.resolve(packages),
  snapshotFile,
  process.argv.includes("--digest"),
);
process.stdout.write(`${JSON.stringify(times)}\n`);
