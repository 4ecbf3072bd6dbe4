/**
 * A benchmark worker in a process of its own, so that its peak RSS is its own: forked by
 * `worker-child.ts` with SIGHTLINE_BENCH_WORKER = JSON of { databaseUrl, schema, settings }.
 * Logs JSON lines on stdout (the phases' times); answers "usage" with its resource usage, and
 * profiles its CPU between "profile-start" and { profileTo }.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import {
  constants,
  type NodeGCPerformanceDetail,
  type PerformanceEntry,
  PerformanceObserver,
} from "node:perf_hooks";
import { createDb } from "@sightline/db";
import { createLogger } from "@sightline/logging";
import { localMasterKey } from "../src/credentials/master-key.ts";
import { startJobQueue } from "../src/runtime/start-job-queue.ts";
import { startWorker, type WorkerSettings } from "../src/worker/start-worker.ts";

/** A garbage collection: when it started (epoch ms), how long it took, whether major. */
export interface GcEvent {
  at: number;
  ms: number;
  major: boolean;
}

/**
 * The V8 heap in use, the memory outside it (Buffers) and the process's CPU so far (user +
 * system seconds), sampled every 500 ms.
 */
export interface HeapSample {
  at: number;
  heapUsed: number;
  external: number;
  cpuSeconds: number;
}

export interface WorkerUsage {
  maxRssBytes: number;
  cpuSeconds: number;
  gc: GcEvent[];
  heap: HeapSample[];
}

const gc: GcEvent[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as PerformanceEntry & { detail?: NodeGCPerformanceDetail };
    const kind = detail?.kind;
    const at = performance.timeOrigin + entry.startTime;
    gc.push({ at, ms: entry.duration, major: kind === constants.NODE_PERFORMANCE_GC_MAJOR });
  }
}).observe({ entryTypes: ["gc"] });
const heap: HeapSample[] = [];
setInterval(() => {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  heap.push({
    at: Date.now(),
    heapUsed: memory.heapUsed,
    external: memory.external,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  });
}, 500).unref();

const { databaseUrl, schema, settings } = JSON.parse(
  process.env.SIGHTLINE_BENCH_WORKER ?? "{}",
) as { databaseUrl: string; schema: string; settings: WorkerSettings };
const logger = createLogger({ level: "info" });
const database = createDb(databaseUrl, { maxConnections: 4 });
const boss = await startJobQueue({
  databaseUrl,
  logger,
  queue: settings.queue,
  maintenance: true,
  schema,
});
await startWorker(
  {
    db: database.db,
    databaseUrl,
    boss,
    masterKey: localMasterKey(randomBytes(32)),
    logger,
    now: () => new Date(),
  },
  settings,
);

// A CPU profile of a stretch of the worker's life (the event bench's steps, without the full
// analysis before them): "profile-start", then { profileTo: path } writes it and answers "profiled".
let profiler: Session | undefined;
process.on("message", async (message) => {
  if (message === "profile-start") {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
    return;
  }
  if (typeof message === "object" && message && "profileTo" in message) {
    const { profile } = (await profiler?.post("Profiler.stop")) ?? {};
    profiler?.disconnect();
    profiler = undefined;
    writeFileSync(String(message.profileTo), JSON.stringify(profile ?? {}));
    process.send?.("profiled");
    return;
  }
  if (message !== "usage") return;
  const usage = process.resourceUsage();
  process.send?.({
    maxRssBytes: usage.maxRSS * 1024,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    gc,
    heap,
  } satisfies WorkerUsage);
});
process.once("SIGTERM", async () => {
  await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  await database.close();
  process.exit(0);
});
process.send?.("ready");
