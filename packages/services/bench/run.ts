// Benchmark: pnpm --filter @sightline/services bench
//   [-- medium large writers changes fleet | workbook upload daily events fairness faults]
//   [--fleet-size small|medium|large] [--fleet-accounts 100] [--fleet-workers 1,2]
//   [--events-sizes small,medium,large] [--events-parts latency,steps] [--events-changes admin,inline]
//   [--events-kept 0]
//   [--worker-max-old-space <MiB>] [--worker-heap-growing-percent <percent>]
//   [--worker-node-flags="<flags>"]
//   [--formats csv,parquet] [--fault-runs 3]
//   [--fairness-burst 100] [--fairness-workers 2]
// Needs DATABASE_URL (a Postgres server; a database of the run's own is created and dropped),
// else starts an embedded Postgres. SIGHTLINE_BENCH_BUILT=1 runs the workers on the packages'
// built JavaScript (build first), as production does; by default they run on the sources.

import { cpus, loadavg, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { REPORT_FORMATS, type ReportFormat } from "@sightline/reports";
import { DEFAULT_REPORT_FORMATS } from "../src/analysis/analysis-settings.ts";
import { DEFAULT_EVENT_SETTINGS } from "../src/worker/event-job.ts";
import { openBenchEnvironment } from "./bench-environment.ts";
import { changesTable, runChanges } from "./changes-case.ts";
import { latencyTable, runEventLatency } from "./event-latency-case.ts";
import { eventsTable, runEvents } from "./events-case.ts";
import { fairnessReport, runFairness } from "./fairness-case.ts";
import { doneWhen, doneWhenTable, faultsTable, runFaults } from "./faults-case.ts";
import { type FleetResult, runFleet } from "./fleet-case.ts";
import { objectKindsTable, targetsTable, workbookLine } from "./issue-targets.ts";
import { speedReference } from "./machine-load.ts";
import {
  fleetTable,
  phaseTable,
  rowsTable,
  singleAccountTable,
  uploadTable,
  writersTable,
} from "./report-table.ts";
import {
  runSingleAccount,
  type SingleAccountResult,
  secondDayTable,
} from "./single-account-case.ts";
import { SYNTHETIC_SIZES, type SyntheticSize } from "./synthetic-model.ts";
import { runUpload } from "./upload-case.ts";
import { runWriters } from "./writers-case.ts";

const CASES = [
  "medium",
  "large",
  "workbook",
  "writers",
  "changes",
  "fleet",
  "upload",
  "daily",
  "events",
  "fairness",
  "faults",
] as const;
type CaseName = (typeof CASES)[number];
/**
 * `upload` is an experiment behind a finding (README), `workbook` (the large account with k9's
 * workbook too, compared with `large`) and `daily` (the large account analysed again after 1% of
 * its principals changed, as the daily run compares) long ones, `events` (event steps beside
 * whole analyses, 1,000 and 10,000 principals), `fairness` (partner A's burst of the fake's small
 * account on two workers, partner B's analysis queued behind it: B's wait, A's rate, the lane's
 * depth; it stops once B's analysis has ended) a look at the queue's order, `faults` the soak of
 * issue 34's fault suite: run only when named.
 */
const SIZES_PRINCIPALS = { small: 100, medium: 1_000, large: 10_000 } as const;
const DEFAULT_CASES: readonly CaseName[] = ["medium", "large", "writers", "changes", "fleet"];

// `pnpm bench -- …` passes the `--` on.
const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--"));
const { values, positionals } = parseArgs({
  args,
  allowPositionals: true,
  options: {
    "fleet-size": { type: "string", default: "medium" },
    /** The accounts the `events` case measures (medium: 1,000 principals; large: 10,000). */
    "events-sizes": { type: "string", default: "medium,large" },
    /** What the `events` case measures: steps through a worker (latency), in process (steps). */
    "events-parts": { type: "string", default: "latency,steps" },
    /** The latency part's changes: those whose name contains one of these words (default: all). */
    "events-changes": { type: "string", default: "" },
    /**
     * The worker's `keptPrincipals` (its accounts' last event steps kept in memory); 0 keeps
     * none, each step reads the stored snapshot back (to compare with the default).
     */
    "events-kept": { type: "string", default: String(DEFAULT_EVENT_SETTINGS.keptPrincipals) },
    "fleet-accounts": { type: "string", default: "100" },
    /** Worker counts to run the fleet with, one after the other (their ratio is printed). */
    "fleet-workers": { type: "string", default: "1,2" },
    /** Try a heap limit on the workers (node --max-old-space-size), in MiB. */
    "worker-max-old-space": { type: "string" },
    /** Try V8's heap growing factor fixed at 1 + percent/100 (node --heap-growing-percent). */
    "worker-heap-growing-percent": { type: "string" },
    /** Other flags for the workers' node, space-separated (e.g. "--single-threaded-gc"). */
    "worker-node-flags": { type: "string" },
    /** The workers' report formats; the production default (SIGHTLINE_REPORT_FORMATS) unless named. */
    formats: { type: "string", default: DEFAULT_REPORT_FORMATS.join(",") },
    /** `fairness`: how many analyses partner A queues at once, and on how many workers. */
    "fairness-burst": { type: "string", default: "100" },
    "fairness-workers": { type: "string", default: "2" },
    /** `faults`: how many times each fault runs. */
    "fault-runs": { type: "string", default: "3" },
  },
});
const chosen = positionals.filter((p): p is CaseName => (CASES as readonly string[]).includes(p));
const cases: readonly CaseName[] = chosen.length > 0 ? chosen : DEFAULT_CASES;
const fleetSize = values["fleet-size"] as SyntheticSize;
// small (100 principals) only for the latency part: a step there costs about what any step
// costs whatever the account's size (the queue, the database, the records).
const eventSizes = (values["events-sizes"] ?? "").split(",").filter(Boolean) as (
  | "small"
  | "medium"
  | "large"
)[];
if (eventSizes.some((size) => !(size in SIZES_PRINCIPALS)))
  throw new Error("--events-sizes: small, medium, large, separated by commas");
const eventChanges = (values["events-changes"] ?? "").split(",").filter(Boolean);
const eventsKept = Number(values["events-kept"]);
if (!Number.isInteger(eventsKept) || eventsKept < 0)
  throw new Error("--events-kept: a whole number of principals, 0 or more");
const eventParts = new Set((values["events-parts"] ?? "").split(",").filter(Boolean));
if ([...eventParts].some((part) => part !== "latency" && part !== "steps"))
  throw new Error("--events-parts: latency, steps or both");
if (!SYNTHETIC_SIZES.includes(fleetSize))
  throw new Error(`--fleet-size: one of ${SYNTHETIC_SIZES}`);
const formats = (values.formats ?? "").split(",").filter(Boolean) as ReportFormat[];
if (formats.length === 0 || formats.some((f) => !REPORT_FORMATS.includes(f)))
  throw new Error(`--formats: some of ${REPORT_FORMATS}`);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

console.log(
  `Sightline pipeline bench: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load ${loadNow()}`,
);
const heapLimit = values["worker-max-old-space"];
const growing = values["worker-heap-growing-percent"];
const nodeFlags = (values["worker-node-flags"] ?? "").split(" ").filter(Boolean);
const env = await openBenchEnvironment(
  {
    ...(heapLimit ? { maxOldSpaceMiB: Number(heapLimit) } : {}),
    ...(growing ? { heapGrowingPercent: Number(growing) } : {}),
    ...(nodeFlags.length > 0 ? { nodeFlags } : {}),
  },
  formats,
);
if (heapLimit) console.log(`workers run with --max-old-space-size=${heapLimit}`);
if (growing) console.log(`workers run with --heap-growing-percent=${growing}`);
if (nodeFlags.length > 0) console.log(`workers run with ${nodeFlags.join(" ")}`);
console.log(`report formats: ${formats.join(", ")}; latest and hive copies on`);
const speedAtStart = speedReference();
console.log(
  `speed reference: ${speedAtStart.toFixed(2)} s of CPU for a fixed piece of JavaScript (compare CPU figures across machines by its ratio)`,
);
const singles: SingleAccountResult[] = [];
const outputs: string[] = [];
const fleets: FleetResult[] = [];
try {
  for (const name of cases) {
    log(`${name}… (load ${loadNow()})`);
    if (name === "medium" || name === "large" || name === "workbook") {
      const size = name === "workbook" ? "large" : name;
      const { result } = await runSingleAccount(env, size, { workbook: name === "workbook" });
      singles.push(result);
      log(`${name}: trigger → manifest ${(result.timing.totalMs / 1000).toFixed(1)} s`);
    } else if (name === "daily") {
      const { secondDay } = await runSingleAccount(env, "large", { secondDay: true });
      if (!secondDay) throw new Error("daily: the second analysis gave no figures");
      outputs.push(
        `### The large account's second day: 1% of its principals changed\n\n${secondDayTable(secondDay)}`,
      );
      log(
        `daily: ${secondDay.changes} changes, day two in ${(secondDay.totalMs / 1000).toFixed(1)} s`,
      );
    } else if (name === "writers") {
      const source = singles.at(-1);
      if (!source)
        throw new Error("writers measures the rows of a single-account case: run one first");
      const writers = await runWriters(env, source.executionId);
      outputs.push(`### Writers, one format per pass\n\n${writersTable(source.size, writers)}`);
      log("writers: done");
    } else if (name === "events") {
      for (const size of eventSizes) {
        const principals = SIZES_PRINCIPALS[size];
        if (eventParts.has("latency")) {
          const latency = await runEventLatency(env, size, 5, log, eventChanges, eventsKept);
          outputs.push(`### Event steps through a worker\n\n${latencyTable(latency, principals)}`);
        }
        if (eventParts.has("steps") && size !== "small") {
          const rows = await runEvents(env.databaseUrl, size, log);
          outputs.push(
            `### Event steps beside whole analyses (in process)\n\n${eventsTable(size, principals, rows)}`,
          );
        }
      }
    } else if (name === "changes") {
      const result = await runChanges(env.databaseUrl, "large");
      outputs.push(
        `### Changes: the large account against a copy with 1% of its principals changed\n\n${changesTable(result)}`,
      );
      log(
        `changes: ${result.changes} changes compared in ${(result.compareMs / 1000).toFixed(1)} s`,
      );
    } else if (name === "fairness") {
      const burst = Number(values["fairness-burst"]);
      const workers = Number(values["fairness-workers"]);
      if (!Number.isInteger(burst) || burst < 1 || !Number.isInteger(workers) || workers < 1)
        throw new Error("--fairness-burst and --fairness-workers: positive integers");
      const result = await runFairness(env, { burst, workers, log });
      outputs.push(
        `### Fairness: partner B's analysis behind partner A's burst of ${burst}\n\n${fairnessReport(result)}`,
      );
      log(
        `fairness: B queued → taken ${(result.bQueuedMs / 1000).toFixed(1)} s, ${result.takenAheadOfB} of A's jobs taken ahead of it`,
      );
    } else if (name === "faults") {
      const runs = Number(values["fault-runs"]);
      if (!Number.isInteger(runs) || runs < 1) throw new Error("--fault-runs: a whole number");
      const results = await runFaults(env.databaseUrl, runs, log);
      outputs.push(`### Faults, each run ${runs} time(s)\n\n${faultsTable(results)}`);
      log("faults: the issue's figure, under the default lease…");
      const figure = await doneWhen(env.databaseUrl);
      outputs.push(
        `### A worker killed while delivering: default lease (renewed every 5 s, lost after 20 s), pg-boss expiry 600 s\n\n${doneWhenTable(figure)}`,
      );
    } else if (name === "upload") {
      outputs.push(
        `### 1 GiB through the S3 inbox, by live heap\n\n${uploadTable(await runUpload())}`,
      );
      log("upload: done");
    } else {
      const accounts = Number(values["fleet-accounts"]);
      for (const workers of String(values["fleet-workers"]).split(",").map(Number)) {
        if (!Number.isInteger(workers) || workers < 1)
          throw new Error("--fleet-workers: worker counts, e.g. 1,2");
        const fleet = await runFleet(env, fleetSize, accounts, workers);
        fleets.push(fleet);
        log(
          `fleet: ${accounts} analyses on ${workers} worker(s) in ${(fleet.totalMs / 1000).toFixed(1)} s (load ${loadNow()})`,
        );
      }
    }
  }
} finally {
  await env.close();
}

console.log(
  `\nload at the end ${loadNow()}; speed reference ${speedAtStart.toFixed(2)} s at the start, ${speedReference().toFixed(2)} s at the end\n`,
);
if (singles.length > 0) {
  console.log(`### Trigger → manifest, one account\n\n${singleAccountTable(singles)}\n`);
  console.log(`### Rows per report, bytes per format\n\n${rowsTable(singles)}\n`);
  console.log(
    `### Phases: the worker's CPU, memory and garbage collection\n\n${phaseTable(singles)}\n`,
  );
  console.log(`### Objects delivered, by kind\n\n${objectKindsTable(singles)}\n`);
  if (singles.some((r) => r.size === "large"))
    console.log(`### The large account against the issue's targets\n\n${targetsTable(singles)}\n`);
  const workbook = workbookLine(singles);
  if (workbook) console.log(`${workbook}\n`);
}
for (const output of outputs) console.log(`${output}\n`);
if (fleets.length > 0) console.log(`### Accounts queued at once\n\n${fleetTable(fleets)}\n`);
