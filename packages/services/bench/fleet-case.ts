import { startFakeAws } from "@sightline/aws-fake";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { type BenchEnvironment, MANIFESTS_ONLY } from "./bench-environment.ts";
import { checkDelivery } from "./delivery-check.ts";
import {
  type MachineLoad,
  machineLoadBetween,
  ownCpuSeconds,
  sampleMachine,
} from "./machine-load.ts";
import { ACCOUNT_ID, type SyntheticSize, syntheticAccountModel } from "./synthetic-model.ts";
import { startWorkerChild, type WorkerChild } from "./worker-child.ts";

export interface FleetWorker {
  name: string;
  analyses: number;
  peakRssBytes: number;
  cpuSeconds: number;
}

export interface FleetResult {
  size: SyntheticSize;
  accounts: number;
  /** First trigger → last execution recorded. */
  totalMs: number;
  /** How long enqueueing every trigger took. */
  triggerMs: number;
  analysesPerMinute: number;
  /** Trigger → manifest, per execution: median and slowest. */
  latencyMedianMs: number;
  latencyMaxMs: number;
  deliveredBytes: number;
  workers: FleetWorker[];
  machine: MachineLoad;
}

const delivered = (worker: WorkerChild) =>
  new Set(worker.lines.filter((l) => l.msg === "delivered").map((l) => l.executionId)).size;

/**
 * `accounts` partner customers, each monitoring the synthetic account of `size`, triggered at
 * once and analysed by `workerCount` worker processes sharing the queue.
 */
export async function runFleet(
  env: BenchEnvironment,
  size: SyntheticSize,
  accounts: number,
  workerCount: number,
): Promise<FleetResult> {
  const fake = await startFakeAws(syntheticAccountModel(size), { storeBodies: MANIFESTS_ONLY });
  const workers: WorkerChild[] = [];
  try {
    for (let i = 1; i <= workerCount; i++)
      workers.push(
        await startWorkerChild(
          `fleet-${i}`,
          {
            databaseUrl: env.databaseUrl,
            schema: env.schema,
            settings: env.workerSettings(fake),
          },
          env.workerProcess,
        ),
      );
    const partnerId = await env.addPartner();
    const owners = [];
    for (let i = 0; i < accounts; i++) owners.push(await env.addCustomer(partnerId));
    const cpuBefore = await Promise.all(workers.map((w) => w.usage()));
    const machineStart = sampleMachine();
    const ownStart = ownCpuSeconds();
    const triggeredAt = Date.now();
    const executionIds: string[] = [];
    for (const owner of owners) {
      const triggered = await triggerAnalysis(env.ctx, {
        owner,
        accountId: ACCOUNT_ID,
        kind: "ondemand",
      });
      executionIds.push(triggered.executionId);
    }
    const triggerMs = Date.now() - triggeredAt;
    const executions = await Promise.race([
      env.finished(executionIds),
      ...workers.map((w) => w.crashed),
    ]);
    const totalMs = Date.now() - triggeredAt;
    const machineEnd = sampleMachine();
    const ownEnd = ownCpuSeconds();
    const usages = await Promise.all(workers.map((w) => w.usage()));
    const deliveredBytes = executions.reduce((sum, e) => sum + checkDelivery(fake, e).bytes, 0);
    const latencies = executions
      .map((e) => (e.finishedAt?.getTime() ?? 0) - e.createdAt.getTime())
      .sort((a, b) => a - b);
    const fleetWorkers = workers.map((worker, i) => ({
      name: worker.name,
      analyses: delivered(worker),
      peakRssBytes: usages[i]?.maxRssBytes ?? 0,
      cpuSeconds: (usages[i]?.cpuSeconds ?? 0) - (cpuBefore[i]?.cpuSeconds ?? 0),
    }));
    const workerCpu = fleetWorkers.reduce((sum, w) => sum + w.cpuSeconds, 0);
    return {
      size,
      accounts,
      totalMs,
      triggerMs,
      analysesPerMinute: accounts / (totalMs / 60_000),
      latencyMedianMs: latencies[Math.floor(latencies.length / 2)] ?? 0,
      latencyMaxMs: latencies.at(-1) ?? 0,
      deliveredBytes,
      workers: fleetWorkers,
      machine: machineLoadBetween(machineStart, machineEnd, workerCpu + ownEnd - ownStart),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await fake.close();
  }
}
