// Benchmark: pnpm --filter @sightline/engine bench:paths [-- org10k|org100k] [--cap-ms 10000]
import { spawn, spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { ORGANISATIONS } from "./generate-organisation.ts";
import { runBaseline } from "./paths-baseline.ts";
import { type MeasureResult, measure } from "./paths-measure.ts";
import { LIMITS, type OrgName } from "./paths-targets.ts";

interface BaselineResult {
  limit: number;
  paths: number;
  ms: number;
  finished: boolean;
}

const args = process.argv.slice(2);
const capAt = args.indexOf("--cap-ms");
const capMs = capAt >= 0 ? Number(args[capAt + 1]) : 10_000;
const only = args.find((a): a is OrgName => a in ORGANISATIONS);

/** Each measurement in its own process, so that peak memory is that organisation's alone. */
function child(extra: string[], timeoutMs: number) {
  return spawnSync(
    process.execPath,
    ["--expose-gc", ...process.execArgv, process.argv[1] as string, "--child", ...extra],
    { encoding: "utf8", maxBuffer: 1 << 28, timeout: timeoutMs, killSignal: "SIGKILL" },
  );
}

/** Runs the baseline in a child and stops it `capMs` after its setup: a single call may not return. */
function baseline(org: OrgName, limit: number): Promise<BaselineResult> {
  return new Promise((resolve) => {
    const proc = spawn(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1] as string,
        "--child",
        "--baseline",
        org,
        String(limit),
        String(capMs),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let last = "";
    let buffer = "";
    let timer: NodeJS.Timeout | undefined;
    proc.stdout.setEncoding("utf8");
    proc.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "ready") timer = setTimeout(() => proc.kill("SIGKILL"), capMs + 1000);
        else last = line;
      }
    });
    proc.on("close", () => {
      clearTimeout(timer);
      const [word, paths = "0", ms = String(capMs)] = last.split(" ");
      resolve({ limit, paths: Number(paths), ms: Number(ms), finished: word === "done" });
    });
  });
}

const f0 = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const f1 = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });

function report(r: MeasureResult, base: BaselineResult[]): string {
  const s = r.stats;
  const lines = [
    `${r.org}: ${f0(s.roles)} roles, ${f0(s.users)} users in ${ORGANISATIONS[r.org].accounts} accounts (machine load ${r.load.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} now)`,
    `  generate ${f0(r.generateMs)} ms, createAccountModel ${f0(r.modelMs)} ms (model heap ${f0(r.modelHeapMiB)} MiB)`,
    `  buildAccessGraph ${f0(r.buildMs)} ms wall, ${f0(r.buildCpuMs)} ms CPU; graph heap ${f0(r.graphHeapMiB)} MiB; peak RSS ${f0(r.peakRssMiB)} MiB (whole process)`,
    `  graph: ${f0(s.nodes)} nodes, ${f0(s.edges)} edges (${f0(s.assumeEdges)} assume, ${f0(s.accountTrustEdges)} account-trust, ${f0(s.accountMemberEdges)} account-member, ${f0(s.conditionalEdges)} conditional), ${f0(s.decisions)} decisions`,
    `  graphology view on demand: ${f0(r.graphologyMs)} ms, ${f0(r.graphologyHeapMiB)} MiB`,
  ];
  for (const l of r.limits) {
    const b = base.find((x) => x.limit === l.limit);
    // No call returned within the cap: at most one path per cap, a lower bound for the ratio.
    const bRate = b
      ? (Math.max(b.paths, 1) / (b.finished ? b.ms : Math.max(b.ms, capMs))) * 1000
      : 0;
    const bound = b && b.paths === 0 ? "≥ " : "";
    lines.push(
      `  limit ${String(l.limit).padStart(2)}: ${f0(l.entries)} entries for ${r.targets} targets in ${f0(l.ms)} ms = ${f0(l.entriesPerSecond)} entries/s; first 1,000 entries median ${f1(l.first1000MedianMs)} ms, p95 ${f1(l.first1000P95Ms)} ms (${l.reached1000} targets); ceiling hit ${l.ceilingHits}/${r.targets}`,
      b
        ? `            baseline allSimplePaths: ${f0(b.paths)} paths in ${f0(b.paths === 0 ? capMs : b.ms)} ms${b.finished ? "" : " (cap)"} = ${bound ? "< " : ""}${f1(bRate)} paths/s → ${bound}${f0(l.entriesPerSecond / bRate)}× faster`
        : "            baseline: not run",
    );
  }
  lines.push(
    `  endpoint 12, 10 resources (STS, 10 nodes, ceiling 10,000; ${f0(r.query10Entries)} entries per query on average): p50 ${f1(r.query10P50Ms)} ms, p99 ${f1(r.query10P99Ms)} ms`,
    `  shortestPathsTo 50 targets: ${f1(r.shortestPathsMs)} ms, ${f0(r.shortestPathsFound)} principals reach one`,
  );
  return lines.join("\n");
}

if (args.includes("--child")) {
  const at = args.indexOf("--baseline");
  if (at >= 0) runBaseline(args[at + 1] as OrgName, Number(args[at + 2]), Number(args[at + 3]));
  else process.stdout.write(`${JSON.stringify(measure(only as OrgName))}\n`);
} else {
  let failed = false;
  for (const org of only ? [only] : (Object.keys(ORGANISATIONS) as OrgName[])) {
    const out = child([org], 900_000);
    const line = out.stdout.trim().split("\n").pop() ?? "";
    if (out.status !== 0 || !line.startsWith("{")) {
      console.error(`${org}: child failed\n${out.stderr}`);
      failed = true;
      continue;
    }
    const base: BaselineResult[] = [];
    for (const limit of LIMITS) base.push(await baseline(org, limit));
    console.log(report(JSON.parse(line) as MeasureResult, base));
  }
  process.exit(failed ? 1 : 0);
}
