/**
 * The soak bench of issue 34 (`bench -- faults`): each fault of the suite run again and again,
 * the invariants checked after every run; then the issue's figure under the default lease.
 */
import { type DoneWhen, doneWhen, killScenarios } from "./fault-kills.ts";
import {
  type FaultRun,
  inProcessScenarios,
  restartScenario,
  type Scenario,
  terminateScenario,
} from "./fault-scenarios.ts";
import { table } from "./report-table.ts";

export interface FaultResult {
  name: string;
  from: string;
  runs: FaultRun[];
}

/** A group of scenarios sharing a set-up, torn down once its runs are done. */
interface Group {
  scenarios: Scenario[];
  close(): Promise<void>;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
};

/** Runs every fault `runs` times; `log` hears of each run. */
export async function runFaults(
  databaseUrl: string,
  runs: number,
  log: (line: string) => void,
): Promise<FaultResult[]> {
  const groups: (() => Promise<Group>)[] = [
    () => killScenarios(databaseUrl),
    () => inProcessScenarios(databaseUrl),
    async () => {
      const { scenario, close } = await terminateScenario(databaseUrl);
      return { scenarios: [scenario], close };
    },
    async () => {
      const { scenario, close } = await restartScenario();
      return { scenarios: [scenario], close };
    },
  ];
  const results: FaultResult[] = [];
  for (const open of groups) {
    const group = await open();
    try {
      const mine = group.scenarios.map((s) => ({
        name: s.name,
        from: s.from,
        runs: [] as FaultRun[],
      }));
      results.push(...mine);
      for (let round = 1; round <= runs; round++)
        for (const [i, scenario] of group.scenarios.entries()) {
          const run = await scenario.run().catch(
            (error: unknown): FaultRun => ({
              recoverySeconds: Number.NaN,
              violations: [`the run failed: ${error instanceof Error ? error.message : error}`],
              outcomes: ["error"],
            }),
          );
          mine[i]?.runs.push(run);
          log(
            `${scenario.name} #${round}: ${run.outcomes.join(", ")} in ${run.recoverySeconds.toFixed(1)} s${run.violations.length > 0 ? `; BROKEN: ${run.violations.join("; ")}` : ""}`,
          );
        }
    } finally {
      await group.close();
    }
  }
  return results;
}

export function faultsTable(results: readonly FaultResult[]): string {
  return table(
    [
      "fault",
      "runs",
      "outcome",
      "recovery p50",
      "recovery max",
      "measured from",
      "invariants broken",
    ],
    results.map((r) => {
      const seconds = r.runs.map((run) => run.recoverySeconds).filter(Number.isFinite);
      const outcomes = new Map<string, number>();
      for (const o of r.runs.flatMap((run) => run.outcomes))
        outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
      const broken = r.runs.flatMap((run) => run.violations);
      return [
        r.name,
        String(r.runs.length),
        [...outcomes].map(([o, count]) => `${count} ${o}`).join(", "),
        seconds.length > 0 ? `${percentile(seconds, 0.5).toFixed(1)} s` : "–",
        seconds.length > 0 ? `${Math.max(...seconds).toFixed(1)} s` : "–",
        r.from,
        broken.length === 0 ? "none" : `${broken.length}: ${[...new Set(broken)].join("; ")}`,
      ];
    }),
  );
}

export { type DoneWhen, doneWhen };

export function doneWhenTable(result: DoneWhen): string {
  const aim = 60;
  return table(
    [
      "kill → execution ended",
      "aim",
      "outcome",
      "dated manifests",
      "alerts (received)",
      "invariants broken",
    ],
    [
      [
        `${result.recoverySeconds.toFixed(1)} s`,
        `≤ ${aim} s ${result.recoverySeconds <= aim ? "(met)" : "(MISSED)"}`,
        `${result.status}, attempt ${result.attempts}`,
        String(result.manifests),
        `${result.alerts} (${result.receivedIds.length} request(s), ${new Set(result.receivedIds).size} ID)`,
        result.violations.length === 0 ? "none" : result.violations.join("; "),
      ],
    ],
  );
}
