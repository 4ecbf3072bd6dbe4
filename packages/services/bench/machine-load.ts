import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

/** The machine's CPU counters (Linux `/proc/stat`) and load at one moment. */
export interface MachineSample {
  at: number;
  busyTicks: number;
  totalTicks: number;
  load1: number;
}

export function sampleMachine(): MachineSample {
  let busyTicks = 0;
  let totalTicks = 0;
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] =
      readFileSync("/proc/stat", "utf8").split("\n", 1)[0]?.split(/\s+/).slice(1).map(Number) ?? [];
    busyTicks =
      (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
    totalTicks = busyTicks + (idle ?? 0) + (iowait ?? 0);
  } catch {
    // Not Linux: only the load average is known.
  }
  return { at: performance.now(), busyTicks, totalTicks, load1: loadavg()[0] ?? 0 };
}

/** What the machine did between two samples, in cores (of `availableParallelism()`). */
export interface MachineLoad {
  /** One-minute load average at the end. */
  load1: number;
  /** Cores busy on average, every process counted. */
  busyCores: number;
  /** Cores busy with processes other than the bench's own (Postgres included). */
  otherCores: number;
}

export function machineLoadBetween(
  start: MachineSample,
  end: MachineSample,
  benchCpuSeconds: number,
): MachineLoad {
  const ticks = end.totalTicks - start.totalTicks;
  const busyCores =
    ticks > 0 ? ((end.busyTicks - start.busyTicks) / ticks) * availableParallelism() : Number.NaN;
  const ownCores = benchCpuSeconds / ((end.at - start.at) / 1000);
  return { load1: end.load1, busyCores, otherCores: Math.max(0, busyCores - ownCores) };
}

/** CPU seconds of this process so far. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/**
 * Seconds this machine takes for a fixed piece of single-threaded JavaScript like the worker's
 * (rows as objects, map look-ups by ARN, CSV lines, JSON texts), the best of three. CPU figures
 * of two machines, or of one machine at two times, compare through its ratio: machines of one
 * kind have differed by 1.6× from one session to the next.
 */
export function speedReference(): number {
  const arns = Array.from({ length: 20_000 }, (_, i) => `arn:aws:iam::111122223333:role/r-${i}`);
  const byArn = new Map(arns.map((arn, i) => [arn, { name: `r-${i}`, index: i }]));
  const once = () => {
    const start = process.cpuUsage();
    let bytes = 0;
    let chunk = "";
    for (let i = 0; i < 600_000; i++) {
      const arn = arns[(i * 7919) % arns.length] as string;
      const found = byArn.get(arn);
      const row = { arn, name: found?.name ?? "", capability: i % 3 ? "read-data" : "write-data" };
      chunk += `${row.arn},${row.name},${row.capability},${JSON.stringify([found?.index ?? i])}\r\n`;
      if (chunk.length >= 65_536) {
        bytes += Buffer.byteLength(chunk);
        chunk = "";
      }
    }
    const used = process.cpuUsage(start);
    if (bytes === 0) throw new Error("the speed reference wrote nothing");
    return (used.user + used.system) / 1e6;
  };
  return Math.min(once(), once(), once());
}
