// Benchmark: pnpm --filter @sightline/reports bench [-- generate|baseline|csv|jsonl|parquet|all ...]
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { type ReportFormat, writeReport } from "../src/index.ts";
import { syntheticPrincipalAccessRows } from "./synthetic-rows.ts";

const ROWS = 1_000_000;
const CASES = {
  generate: [],
  baseline: [],
  csv: ["csv"],
  jsonl: ["jsonl"],
  parquet: ["parquet"],
  all: ["csv", "jsonl", "parquet"],
} as const satisfies Record<string, readonly ReportFormat[]>;
type CaseName = keyof typeof CASES;

interface CaseResult {
  name: CaseName;
  seconds: number;
  bytes: number;
  peakRssMiB: number;
  loadAverage: number;
}

/**
 * A bare JSON Lines writer: each row through `JSON.stringify`, gathered into 64 KiB chunks for
 * a write stream with the writers' 1 MiB buffer. No hashing, no column order, no format rules.
 */
async function writeBaseline(file: string): Promise<number> {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  let chunk = "";
  for (const row of syntheticPrincipalAccessRows(ROWS)) {
    chunk += `${JSON.stringify(row)}\n`;
    if (chunk.length >= 64 * 1024) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
  return (await stat(file)).size;
}

async function runCase(name: CaseName): Promise<CaseResult> {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-reports-bench-"));
  const started = performance.now();
  let bytes = 0;
  if (name === "generate") {
    for (const _ of syntheticPrincipalAccessRows(ROWS));
  } else if (name === "baseline") {
    bytes = await writeBaseline(path.join(dir, "baseline.jsonl"));
  } else {
    const rows = syntheticPrincipalAccessRows(ROWS);
    const report = await writeReport("principal-access-summaries", rows, {
      formats: CASES[name],
      dir,
    });
    bytes = report.files.reduce((sum, file) => sum + file.bytes, 0);
  }
  const seconds = (performance.now() - started) / 1000;
  await rm(dir, { recursive: true, force: true });
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  return { name, seconds, bytes, peakRssMiB, loadAverage: loadavg()[0] ?? 0 };
}

function formatRow(r: CaseResult, baseline: CaseResult | undefined): string {
  const rate = Math.round(ROWS / r.seconds).toLocaleString("en");
  const ratio =
    baseline && r.name !== "baseline" ? `${(r.seconds / baseline.seconds).toFixed(2)}×` : "";
  return [
    r.name.padEnd(9),
    `${r.seconds.toFixed(2)} s`.padStart(8),
    `${rate} rows/s`.padStart(17),
    `${(r.bytes / 2 ** 20 / r.seconds).toFixed(1)} MiB/s`.padStart(12),
    `${(r.bytes / 2 ** 20).toFixed(0)} MiB`.padStart(9),
    `${r.peakRssMiB.toFixed(0)} MiB RSS`.padStart(13),
    `load ${r.loadAverage.toFixed(1)}`.padStart(9),
    ratio.padStart(7),
  ].join("  ");
}

const args = process.argv.slice(2);
const names = args.filter((a): a is CaseName => a in CASES);
if (args.includes("--child") && names[0]) {
  process.stdout.write(`${JSON.stringify(await runCase(names[0]))}\n`);
} else {
  console.log(
    `${ROWS.toLocaleString("en")} synthetic principal-access rows per case, each case in its own process`,
  );
  console.log(
    "case       wall      rows/s            output       size     peak         load     vs baseline",
  );
  let baseline: CaseResult | undefined;
  let failed = false;
  for (const name of names.length > 0 ? names : (Object.keys(CASES) as CaseName[])) {
    // A process per case, so that its peak RSS is its own.
    const out = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1] as string, "--child", name],
      { encoding: "utf8" },
    );
    const line = out.stdout.trim().split("\n").pop() ?? "";
    if (out.status !== 0 || !line.startsWith("{")) {
      console.error(`${name}: child failed\n${out.stderr}`);
      failed = true;
      continue;
    }
    const result = JSON.parse(line) as CaseResult;
    if (name === "baseline") baseline = result;
    console.log(formatRow(result, baseline));
  }
  process.exit(failed ? 1 : 0);
}
