// Benchmark: pnpm --filter @sightline/engine bench:analysis [-- small|medium|large …] [--digest]
//   [--baseline <git ref> | --no-baseline] [--pairs N]
// `--digest` prints a SHA-256 over the JSON of every row, in order (principals, resources,
// both summaries): performance work must leave it unchanged.
// After the sizes, each is analysed again beside an earlier commit's engine, in alternated
// fresh processes (compare-baseline.ts): `--baseline` names the commit (default
// DEFAULT_BASELINE), `--pairs` how many pairs per size (default 5, large 3).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { listAwsActions } from "@sightline/capabilities";
import { analyzeAccount, createAccountModel } from "../src/index.ts";
import {
  type AgreementOptions,
  checkAgreement,
  collectRows,
  reportedResources,
  sampleRequests,
} from "./check-agreement.ts";
import { compareWithBaseline } from "./compare-baseline.ts";
import { generateAccount, SIZES } from "./generate-account.ts";

/**
 * The engine at the end of round 2 (the last engine commit of 2026-11-26 09:54 UTC, before
 * round 3's work): the medium account took 0.57 s there on this kind of machine.
 */
const DEFAULT_BASELINE = "d59dc845d7891f92345b04356d726647ef5e5f0f";

type SizeName = keyof typeof SIZES;
const SAMPLING: Record<SizeName, AgreementOptions> = {
  small: { fullPrincipals: 10, randomRequests: 5000, resourcePairs: 100 },
  medium: { fullPrincipals: 6, randomRequests: 10000, resourcePairs: 100 },
  large: { fullPrincipals: 4, randomRequests: 20000, resourcePairs: 100 },
};

interface SizeResult {
  size: SizeName;
  principals: number;
  policySets: number;
  resources: number;
  parseMs: number;
  analysisMs: number;
  /** CPU time of all the process's threads (GC included) during the analysis. */
  analysisCpuMs: number;
  principalRows: number;
  resourceRows: number;
  peakRssMiB: number;
  /** One-minute load average: other processes on this 2-core machine slow the wall time. */
  loadAverage: number;
  heapUsedMiB: number;
  baselineMs: number;
  speedup: number;
  checked: number;
  mismatches: string[];
  digests?: string;
}

function digestOf(analysis: ReturnType<typeof analyzeAccount>): string {
  const digest = (rows: Iterable<unknown>) => {
    const hash = createHash("sha256");
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
    return hash.digest("hex").slice(0, 16);
  };
  return (
    `principals ${digest(analysis.principals)}, resources ${digest(analysis.resources)}, ` +
    `principal summaries ${digest(analysis.principalAccessSummaries())}, ` +
    `resource summaries ${digest(analysis.resourceAccessSummaries())}`
  );
}

function runSize(size: SizeName, withDigest: boolean): SizeResult {
  const snapshot = generateAccount(SIZES[size]);
  listAwsActions();
  const t0 = performance.now();
  const model = createAccountModel(snapshot);
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const analysis = analyzeAccount(model);
  const sampled = sampleRequests(model, SAMPLING[size]);
  const { principalRows, resourceRows, principalCount, resourceCount } = collectRows(
    analysis,
    sampled,
  );
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const heapUsedMiB = process.memoryUsage().heapUsed / 2 ** 20;
  const report = checkAgreement(model, analysis, principalRows, resourceRows, sampled);
  // The straightforward baseline: authorize for every principal × action on `*`, plus
  // every principal × action of each resource's service on that resource.
  const perCall = report.authorizeMs / Math.max(report.authorizeCalls, 1);
  const actions = listAwsActions();
  const perService = new Map<string, number>();
  for (const a of actions) perService.set(a.prefix, (perService.get(a.prefix) ?? 0) + 1);
  let resourceCalls = 0;
  for (const arn of reportedResources(model)) {
    const prefix = arn.includes(":kms:") ? "kms" : arn.includes(":s3:::") ? "s3" : "sts";
    resourceCalls += perService.get(prefix) ?? 0;
  }
  const baselineCalls = model.principals.size * (actions.length + resourceCalls);
  const baselineMs = baselineCalls * perCall;
  return {
    size,
    principals: analysis.stats.principals,
    policySets: analysis.stats.policySets,
    resources: analysis.stats.resources,
    parseMs: t1 - t0,
    analysisMs: t2 - t1,
    analysisCpuMs: (cpu.user + cpu.system) / 1000,
    principalRows: principalCount,
    resourceRows: resourceCount,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    loadAverage: loadavg()[0] ?? 0,
    heapUsedMiB,
    baselineMs,
    speedup: baselineMs / (t2 - t1),
    checked: report.checked,
    mismatches: report.mismatches,
    ...(withDigest && { digests: digestOf(analysis) }),
  };
}

function format(r: SizeResult): string {
  const load = r.loadAverage.toFixed(1);
  return [
    `${r.size.padEnd(6)} principals=${r.principals} policy-sets=${r.policySets} resources=${r.resources} (machine load ${load})`,
    `  parse ${r.parseMs.toFixed(0)} ms, analysis ${(r.analysisMs / 1000).toFixed(2)} s wall, ${(r.analysisCpuMs / 1000).toFixed(2)} s CPU (${r.principalRows} principal rows, ${r.resourceRows} resource rows)`,
    `  peak RSS ${r.peakRssMiB.toFixed(0)} MiB (whole process, incl. generator), heap after analysis ${r.heapUsedMiB.toFixed(0)} MiB`,
    `  baseline (authorize per principal × action, scaled) ${(r.baselineMs / 1000).toFixed(0)} s → ${r.speedup.toFixed(0)}× faster`,
    `  agreement: ${r.checked} sampled requests checked, ${r.mismatches.length} mismatches`,
    ...r.mismatches.slice(0, 5).map((m) => `    ${m}`),
    ...(r.digests ? [`  digests: ${r.digests}`] : []),
  ].join("\n");
}

// pnpm passes on the `--` that separates its own arguments from the script's.
const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();
const { values: flags, positionals } = parseArgs({
  args: argv,
  options: {
    child: { type: "boolean" },
    digest: { type: "boolean" },
    baseline: { type: "string" },
    "no-baseline": { type: "boolean" },
    pairs: { type: "string" },
  },
  allowPositionals: true,
});
const child = flags.child === true;
const chosen = positionals.filter((a): a is SizeName => a in SIZES);
const withDigest = flags.digest === true;
const baselineRef = flags["no-baseline"] ? undefined : (flags.baseline ?? DEFAULT_BASELINE);
const pairs = Number(flags.pairs ?? 0);
if (!Number.isInteger(pairs) || pairs < 0) throw new Error("--pairs must be a whole number");
if (child && chosen[0]) {
  process.stdout.write(`${JSON.stringify(runSize(chosen[0], withDigest))}\n`);
} else {
  const sizes = chosen.length > 0 ? chosen : (Object.keys(SIZES) as SizeName[]);
  let failed = false;
  for (const size of sizes) {
    // Each size in its own process so that peak memory is that size's alone.
    const out = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1] as string,
        "--child",
        size,
        ...(withDigest ? ["--digest"] : []),
      ],
      { encoding: "utf8", maxBuffer: 1 << 26 },
    );
    const line = out.stdout.trim().split("\n").pop() ?? "";
    if (out.status !== 0 || !line.startsWith("{")) {
      console.error(`${size}: child failed\n${out.stderr}`);
      failed = true;
      continue;
    }
    const result = JSON.parse(line) as SizeResult;
    console.log(format(result));
    if (result.mismatches.length > 0) failed = true;
  }
  if (baselineRef) {
    const compared = compareWithBaseline({
      ref: baselineRef,
      sizes: sizes.map((s) => SIZES[s]),
      pairs: (s) => pairs || (s.name === "large" ? 3 : 5),
      digest: withDigest,
    });
    if (!compared) failed = true;
  }
  process.exit(failed ? 1 : 0);
}
