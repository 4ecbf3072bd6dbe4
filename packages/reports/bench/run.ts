// Benchmark: pnpm --filter @sightline/reports bench [-- generate|baseline|csv|jsonl|parquet|all|xlsx ...] [--size large|1m]
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { openAuditWorkbook, type ReportFormat, writeReport } from "../src/index.ts";
import { syntheticPrincipalAccessRows } from "./synthetic-rows.ts";

/**
 * `large`: the report rows of the services bench's 10,000-principal account (1,344,767 principal
 * access, 4,225,405 resource access, 14,402 principals and resources), as principal-access rows of
 * 10,000 principals. `1m`: the bench's earlier size, 5,000 principals of 200 rows.
 */
const SIZES = {
  large: { rows: 5_584_574, rowsPerPrincipal: 559, principals: 10_000 },
  "1m": { rows: 1_000_000, rowsPerPrincipal: 200, principals: 5_000 },
} as const;
type SizeName = keyof typeof SIZES;

const CASES = {
  generate: [],
  baseline: [],
  csv: ["csv"],
  jsonl: ["jsonl"],
  parquet: ["parquet"],
  all: ["csv", "jsonl", "parquet"],
  xlsx: [],
} as const satisfies Record<string, readonly ReportFormat[]>;
type CaseName = keyof typeof CASES;

const args = process.argv.slice(2);
const sizeIndex = args.indexOf("--size");
const sizeName = (sizeIndex < 0 ? "large" : args[sizeIndex + 1]) as SizeName;
const SIZE = SIZES[sizeName];
if (!SIZE) throw new Error(`--size: one of ${Object.keys(SIZES).join(", ")}`);
const ROWS = SIZE.rows;
const rows = () => syntheticPrincipalAccessRows(ROWS, SIZE.rowsPerPrincipal);

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
  for (const row of rows()) {
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

/** The rows as the workbook's `principal access` sheet, continued past Excel's row limit. */
async function writeWorkbook(dir: string): Promise<number> {
  // Loaded here, so that the catalogue's memory is counted in this case only.
  const { getAwsCapabilityMap } = await import("@sightline/capabilities");
  const workbook = await openAuditWorkbook(path.join(dir, "resource-access-audit.xlsx"), {
    analysisTime: new Date("2026-03-04T07:00:00Z"),
    summary: {
      account: "210987654321",
      principals: SIZE.principals,
      iamAdmins: 12,
      resources: 4_402,
    },
    capabilityMap: getAwsCapabilityMap(),
  });
  await writeReport("principal-access-summaries", rows(), { formats: [], dir, workbook });
  return (await workbook.finish()).bytes;
}

async function runCase(name: CaseName): Promise<CaseResult> {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-reports-bench-"));
  const started = performance.now();
  let bytes = 0;
  if (name === "generate") {
    for (const _ of rows());
  } else if (name === "baseline") {
    bytes = await writeBaseline(path.join(dir, "baseline.jsonl"));
  } else if (name === "xlsx") {
    bytes = await writeWorkbook(dir);
  } else {
    const report = await writeReport("principal-access-summaries", rows(), {
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

const names = args.filter((a): a is CaseName => a in CASES);
if (args.includes("--child") && names[0]) {
  process.stdout.write(`${JSON.stringify(await runCase(names[0]))}\n`);
} else {
  console.log(
    `${ROWS.toLocaleString("en")} synthetic principal-access rows of ${SIZE.principals.toLocaleString("en")} principals per case (--size ${sizeName}), each case in its own process`,
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
      [...process.execArgv, process.argv[1] as string, "--child", name, "--size", sizeName],
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
