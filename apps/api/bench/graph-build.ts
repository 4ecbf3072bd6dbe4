/**
 * `pnpm --filter @sightline/api bench:graph`: endpoint 12's first request for a customer of
 * 100,000 roles in 500 accounts (the engine bench's seeded organisation), which builds its access
 * graph, while a child process sends `GET /partner/{id}` to the same API every 10 ms. Prints the
 * build's time, the GETs' p50/p99/max before and during it, and the machine's load: with the
 * graph in a worker thread (today's) and, as the baseline, on the API's own thread.
 *
 *   … bench:graph [-- --mode thread|in-thread|both] [--size org10k|org100k] [--interval-ms 10]
 *
 * Also printed: the API's event loop delay during the build (perf_hooks), which tells the API's
 * own stalls from the machine's (a GET's latency also counts the probe's and Postgres's turns on
 * a shared machine). BENCH_DETAIL=1 lists the GETs over 30 ms and the GC pauses over 20 ms.
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type ServerType, serve } from "@hono/node-server";
import { createDb, insertApiKey, upsertPartner, upsertPartnerCustomer } from "@sightline/db";
import { createTestDatabase } from "@sightline/db/testing";
import { silentLogger } from "@sightline/logging";
import { DEFAULT_QUEUE_SETTINGS, localMasterKey, startJobQueue } from "@sightline/services";
import { ORGANISATIONS } from "../../../packages/engine/bench/generate-organisation.ts";
import {
  machineLoadBetween,
  ownCpuSeconds,
  sampleMachine,
} from "../../../packages/services/bench/machine-load.ts";
import { createApp } from "../src/app.ts";
import { connectAppDeps } from "../src/deps.ts";
import { generateApiKey, hashKey } from "../src/keys.ts";
import { storeOrganisation } from "../test/organisation-snapshots.ts";

const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--"));
const { values } = parseArgs({
  args,
  options: {
    mode: { type: "string", default: "both" },
    size: { type: "string", default: "org100k" },
    "interval-ms": { type: "string", default: "10" },
  },
});
const size = ORGANISATIONS[values.size as keyof typeof ORGANISATIONS];
if (!size) throw new Error(`--size: one of ${Object.keys(ORGANISATIONS)}`);
const modes = (values.mode === "both" ? ["thread", "in-thread"] : [values.mode]) as (
  | "thread"
  | "in-thread"
)[];
if (!modes.every((m) => m === "thread" || m === "in-thread"))
  throw new Error("--mode: thread, in-thread or both");
const intervalMs = Number(values["interval-ms"]);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

interface Stats {
  count: number;
  p50: number;
  p99: number;
  max: number;
}
function statsOf(latencies: number[]): Stats {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { count: sorted.length, p50: at(0.5) ?? 0, p99: at(0.99) ?? 0, max: sorted.at(-1) ?? 0 };
}

console.log(
  `Endpoint 12 graph bench: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; load ${load()}`,
);
const database = await createTestDatabase(process.env.DATABASE_URL);
const partnerId = "P700002";
const partnerCustomerId = "bench-graph";
/** A customer of a few roles, asked first: the thread has started and the code is warm. */
const warmCustomerId = "bench-warm";
const { id: keyId, key } = generateApiKey();
let customerId: string;
let target: { accountId: string; roleArn: string };
let warmTarget: { accountId: string; roleArn: string };
{
  const seeding = createDb(database.url, { maxConnections: 2 });
  await upsertPartner(seeding.db, { partnerId });
  const ref = await upsertPartnerCustomer(seeding.db, {
    partnerId,
    partnerCustomerId,
    subscriptionPlanName: "Enterprise",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  if (!ref) throw new Error("the partner customer was not stored");
  customerId = ref.customerId;
  const warm = await upsertPartnerCustomer(seeding.db, {
    partnerId,
    partnerCustomerId: warmCustomerId,
    subscriptionPlanName: "Enterprise",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  if (!warm) throw new Error("the partner customer was not stored");
  const warmStored = await storeOrganisation(seeding.db, warm.customerId, {
    name: "warm",
    accounts: 2,
    roles: 40,
  });
  warmTarget = { accountId: warmStored.accountIds[0] as string, roleArn: warmStored.roleArn };
  await insertApiKey(seeding.db, { id: keyId, keyHash: hashKey(key), partnerId });
  log(`storing ${size.roles} roles in ${size.accounts} accounts… (load ${load()})`);
  const stored = await storeOrganisation(seeding.db, customerId, size);
  target = { accountId: stored.accountIds[0] as string, roleArn: stored.roleArn };
  await seeding.close();
}

interface ModeResult {
  mode: string;
  firstMs: number;
  cachedMs: number;
  idle: Stats;
  during: Stats;
  /** The API's event loop delay during the build (perf_hooks), p99 and max, in ms. */
  loopDelay: { p99: number; max: number };
  failures: Record<string, number>;
  load1: number;
  busyCores: number;
  otherCores: number;
}

async function runMode(mode: "thread" | "in-thread"): Promise<ModeResult> {
  const boss = await startJobQueue({
    databaseUrl: database.url,
    logger: silentLogger,
    queue: DEFAULT_QUEUE_SETTINGS,
    maintenance: false,
  });
  const running = await connectAppDeps({
    databaseUrl: database.url,
    adminKey: `unused-operator-key-${randomBytes(12).toString("hex")}`,
    logger: silentLogger,
    boss,
    masterKey: localMasterKey(randomBytes(32)),
    accessPaths: mode,
  });
  const app = createApp(running.deps);
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
      resolve(info.port),
    );
  });
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${key}` };
  const probe = fork(fileURLToPath(new URL("./probe.ts", import.meta.url)), {
    env: {
      ...process.env,
      PROBE_URL: `${base}/partner/${partnerId}`,
      PROBE_KEY: key,
      PROBE_INTERVAL_MS: String(intervalMs),
    },
    execArgv: ["--conditions=@sightline/source", "--import", "tsx"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once("message", () => resolve());
      probe.once("exit", (code) => reject(new Error(`probe exited with ${code}`)));
    });
    const ask = async (customer = partnerCustomerId, asked = target) => {
      const res = await fetch(
        `${base}/partner/${partnerId}/customer/${customer}/account/${asked.accountId}/resource-access-paths`,
        {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({
            resourceIds: [asked.roleArn],
            principalAccessCapabilities: ["use-resource"],
            service: "STS",
            accessCapabilityOperator: "OR",
            maxAccessPathNodes: 3,
          }),
        },
      );
      const text = await res.text();
      if (res.status !== 200) throw new Error(`endpoint 12 answered ${res.status}: ${text}`);
    };
    // Warm: the key and the partner are cached, the JIT has seen the routes, the thread runs.
    await ask(warmCustomerId, warmTarget);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleFrom = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleTo = Date.now();
    log(`${mode}: building the graph… (load ${load()})`);
    const machine0 = sampleMachine();
    const cpu0 = ownCpuSeconds();
    // BENCH_DETAIL=1: the slow GETs and this process's GC pauses, at seconds into the build.
    const pauses: string[] = [];
    let buildStarted = performance.now();
    const gcs = new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.duration > 20)
          pauses.push(
            `${((e.startTime - buildStarted) / 1000).toFixed(2)}s:${e.duration.toFixed(0)}`,
          );
    });
    gcs.observe({ entryTypes: ["gc"] });
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const buildFrom = Date.now();
    buildStarted = performance.now();
    await ask();
    const buildTo = Date.now();
    delay.disable();
    gcs.disconnect();
    if (process.env.BENCH_DETAIL) log(`GC pauses over 20 ms: ${pauses.join(" ") || "none"}`);
    const machine = machineLoadBetween(machine0, sampleMachine(), ownCpuSeconds() - cpu0);
    const cachedFrom = performance.now();
    await ask();
    const cachedMs = performance.now() - cachedFrom;
    probe.send("stop");
    const { samples, failures } = await new Promise<{
      samples: [number, number][];
      failures: Record<string, number>;
    }>((resolve) => probe.once("message", (m) => resolve(m as never)));
    if (process.env.BENCH_DETAIL) {
      const slow = samples.filter(([at, ms]) => at >= buildFrom && at <= buildTo && ms > 30);
      const listed = slow.map(
        ([at, ms]) => `${((at - buildFrom) / 1000).toFixed(2)}s:${ms.toFixed(0)}`,
      );
      log(`GETs over 30 ms: ${listed.join(" ") || "none"}`);
    }
    const within = (from: number, to: number) =>
      samples.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
    const result = {
      mode,
      firstMs: buildTo - buildFrom,
      cachedMs,
      idle: statsOf(within(idleFrom, idleTo)),
      during: statsOf(within(buildFrom, buildTo)),
      loopDelay: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
      failures,
      ...machine,
    };
    log(
      `${mode}: first answer in ${(result.firstMs / 1000).toFixed(1)} s, GET p99 during it ${result.during.p99.toFixed(1)} ms`,
    );
    return result;
  } finally {
    probe.kill();
    server?.close();
    await running.close();
    await boss.stop({ graceful: false });
  }
}

const results: ModeResult[] = [];
try {
  for (const mode of modes) results.push(await runMode(mode));
} finally {
  await database.dispose();
}

const ms = (n: number) => n.toFixed(1);
console.log(
  `\n### Endpoint 12's first request for ${size.roles.toLocaleString("en")} roles in ${size.accounts} accounts, GET /partner/{id} every ${intervalMs} ms\n`,
);
console.log(
  "| where the graph is built | first answer | cached answer | GETs before: p50 / p99 / max | GETs during the build: n, p50 / p99 / max | API's loop delay during it: p99 / max | failed GETs | load 1 min | cores busy (others) |",
);
console.log("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
for (const r of results)
  console.log(
    `| ${r.mode === "thread" ? "in a worker thread" : "on the API's thread"} | ${(r.firstMs / 1000).toFixed(1)} s | ${ms(r.cachedMs)} ms | ${ms(r.idle.p50)} / ${ms(r.idle.p99)} / ${ms(r.idle.max)} ms | ${r.during.count}, ${ms(r.during.p50)} / ${ms(r.during.p99)} / ${ms(r.during.max)} ms | ${ms(r.loopDelay.p99)} / ${ms(r.loopDelay.max)} ms | ${
      Object.entries(r.failures)
        .map(([cause, n]) => `${n} ${cause}`)
        .join(", ") || 0
    } | ${r.load1.toFixed(2)} | ${r.busyCores.toFixed(2)} (${r.otherCores.toFixed(2)}) |`,
  );
const [thread, inThread] = [
  results.find((r) => r.mode === "thread"),
  results.find((r) => r.mode === "in-thread"),
];
if (thread && inThread)
  console.log(
    `\nGET p99 during the build: ${ms(inThread.during.p99)} ms on the API's thread → ${ms(thread.during.p99)} ms with the graph in a worker thread (${(inThread.during.p99 / thread.during.p99).toFixed(0)}× lower)`,
  );
console.log(`\nload at the end ${load()}`);
