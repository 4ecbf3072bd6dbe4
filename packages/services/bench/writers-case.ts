import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { BenchEnvironment } from "./bench-environment.ts";
import { type MachineLoad, machineLoadBetween, sampleMachine } from "./machine-load.ts";
import type { WritersResult } from "./writers-process.ts";

const SCRIPT = fileURLToPath(new URL("./writers-process.ts", import.meta.url));

/**
 * Rows/s of each writer alone, on the rows of an execution's account (its stored snapshot), in
 * a child process of its own. The pipeline writes every format in one pass; this tells them apart.
 */
export async function runWriters(
  env: BenchEnvironment,
  executionId: string,
): Promise<WritersResult & { machine: MachineLoad }> {
  const start = sampleMachine();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--conditions=@sightline/source", "--import", "tsx", "--expose-gc", SCRIPT],
    {
      env: {
        ...process.env,
        SIGHTLINE_BENCH_WRITERS: JSON.stringify({ databaseUrl: env.databaseUrl, executionId }),
      },
      maxBuffer: 1 << 20,
    },
  );
  const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as WritersResult;
  const machine = machineLoadBetween(start, sampleMachine(), result.cpuSeconds);
  return { ...result, machine };
}
