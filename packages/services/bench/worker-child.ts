import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { WorkerSettings } from "../src/worker/start-worker.ts";
import type { WorkerUsage } from "./worker-process.ts";

/** One JSON log line of a worker. */
export interface WorkerLogLine {
  time: string;
  level: string;
  msg: string;
  executionId?: string;
  rows?: Record<string, number>;
}

/** The child's resident memory at a moment (epoch ms, bytes), sampled from /proc. */
export interface RssSample {
  at: number;
  rss: number;
}

export interface WorkerChild {
  readonly name: string;
  readonly pid: number;
  /** Every log line so far, in order. */
  readonly lines: readonly WorkerLogLine[];
  /** RSS every 200 ms (Linux), to tell which phase holds the memory. */
  readonly rss: readonly RssSample[];
  /** Rejects if the process exits before `stop()`: race it against waiting for executions. */
  readonly crashed: Promise<never>;
  usage(): Promise<WorkerUsage>;
  /** Runs `work` while the worker profiles its CPU; writes the profile (`.cpuprofile`) to `path`. */
  profile<T>(path: string, work: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL("./worker-process.ts", import.meta.url));
const RSS_SAMPLE_MS = 200;

function residentBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** V8 flags to try on the workers: a heap limit (MiB), a fixed heap growing factor (percent). */
export interface WorkerProcessOptions {
  maxOldSpaceMiB?: number;
  heapGrowingPercent?: number;
  /** Other V8 or Node flags to try on the workers (e.g. `--single-threaded-gc`). */
  nodeFlags?: readonly string[];
}

/** Forks `worker-process.ts` and resolves once its worker takes jobs. */
export async function startWorkerChild(
  name: string,
  config: { databaseUrl: string; schema: string; settings: WorkerSettings },
  options: WorkerProcessOptions = {},
): Promise<WorkerChild> {
  // SIGHTLINE_BENCH_PROFILE=<dir>: the worker writes a V8 CPU profile there when it stops.
  const profileDir = process.env.SIGHTLINE_BENCH_PROFILE;
  const heapLimit = options.maxOldSpaceMiB;
  const child: ChildProcess = fork(SCRIPT, {
    execArgv: [
      // SIGHTLINE_BENCH_BUILT=1: the packages' built JavaScript (dist, as production runs it).
      ...(process.env.SIGHTLINE_BENCH_BUILT === "1" ? [] : ["--conditions=@sightline/source"]),
      "--import",
      "tsx",
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      ...(heapLimit ? [`--max-old-space-size=${heapLimit}`] : []),
      ...(options.heapGrowingPercent
        ? [`--heap-growing-percent=${options.heapGrowingPercent}`]
        : []),
      ...(options.nodeFlags ?? []),
    ],
    env: { ...process.env, SIGHTLINE_BENCH_WORKER: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines: WorkerLogLine[] = [];
  if (child.stdout)
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (!line.startsWith("{")) return;
      const parsed = JSON.parse(line) as WorkerLogLine;
      lines.push(parsed);
      if (parsed.level === "error" || parsed.level === "warn")
        console.error(`worker ${name}: ${line}`);
    });
  const rss: RssSample[] = [];
  const sampler = setInterval(() => {
    const bytes = child.pid && residentBytes(child.pid);
    if (bytes) rss.push({ at: Date.now(), rss: bytes });
  }, RSS_SAMPLE_MS);
  const exited = once(child, "exit").finally(() => clearInterval(sampler));
  const ready = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`worker ${name} exited (${code}) early`)));
  });
  if (ready !== "ready") throw new Error(`worker ${name} said ${String(ready)}`);
  let stopping = false;
  const crashed = exited.then(([code, signal]) => {
    if (!stopping) throw new Error(`worker ${name} exited (${code ?? signal}) during the bench`);
    return new Promise<never>(() => {});
  });
  crashed.catch(() => {});
  return {
    name,
    pid: child.pid ?? 0,
    lines,
    rss,
    crashed,
    async usage() {
      const answer = once(child, "message");
      child.send("usage");
      return (await answer)[0] as WorkerUsage;
    },
    async profile<T>(path: string, work: () => Promise<T>): Promise<T> {
      child.send("profile-start");
      const value = await work();
      const written = once(child, "message");
      child.send({ profileTo: path });
      await written;
      return value;
    },
    async stop() {
      stopping = true;
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
