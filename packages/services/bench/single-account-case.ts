import { startFakeAws } from "@sightline/aws-fake";
import type { ReportFormat, ReportType } from "@sightline/reports";
import { triggerAnalysis } from "../src/triggers/trigger-analysis.ts";
import { type BenchEnvironment, type Execution, MANIFESTS_ONLY } from "./bench-environment.ts";
import { checkDelivery, type ObjectKind } from "./delivery-check.ts";
import {
  type MachineLoad,
  machineLoadBetween,
  ownCpuSeconds,
  sampleMachine,
} from "./machine-load.ts";
import { type ExecutionPhases, phasesOf } from "./phases.ts";
import {
  ACCOUNT_ID,
  changeOnePercentOf,
  principalsOf,
  type SyntheticSize,
  syntheticAccountModel,
} from "./synthetic-model.ts";
import { startWorkerChild, type WorkerChild } from "./worker-child.ts";

export interface SingleAccountResult {
  size: SyntheticSize;
  /** k9's workbook written too (the `workbook` case). */
  workbook: boolean;
  formats: readonly ReportFormat[];
  principals: number;
  executionId: string;
  timing: ExecutionPhases;
  /** Rows of each report. */
  rows: Record<ReportType, number>;
  /** Rows and bytes written per format (each report's file of that format, once). */
  bytesPerFormat: Partial<Record<ReportFormat | "xlsx", { rows: number; bytes: number }>>;
  objects: number;
  deliveredBytes: number;
  /** Bytes sent to the inbox: server-side copies send none. */
  uploadedBytes: number;
  kinds: ObjectKind[];
  peakRssBytes: number;
  workerCpuSeconds: number;
  machine: MachineLoad;
}

/**
 * Trigger → manifest delivered for one synthetic account, with a fresh worker in a child
 * process (its peak RSS is this analysis's) and the fake AWS in this process.
 */
export async function runSingleAccount(
  env: BenchEnvironment,
  size: SyntheticSize,
  options: { workbook?: boolean; secondDay?: boolean } = {},
): Promise<{ result: SingleAccountResult; execution: Execution; secondDay?: SecondDay }> {
  const model = syntheticAccountModel(size);
  const fake = await startFakeAws(model, { storeBodies: MANIFESTS_ONLY });
  const workbook = options.workbook === true;
  const worker = await startWorkerChild(
    size,
    {
      databaseUrl: env.databaseUrl,
      schema: env.schema,
      settings: env.workerSettings(fake, { workbook }),
    },
    env.workerProcess,
  ).catch(async (error: unknown) => {
    await fake.close();
    throw error;
  });
  try {
    const owner = await env.addCustomer(await env.addPartner());
    const before = { worker: await worker.usage(), own: ownCpuSeconds(), machine: sampleMachine() };
    const triggeredAt = Date.now();
    const { executionId } = await triggerAnalysis(env.ctx, {
      owner,
      accountId: ACCOUNT_ID,
      kind: "ondemand",
    });
    const [execution] = (await Promise.race([env.finished([executionId]), worker.crashed])) as [
      Execution,
    ];
    const machineEnd = sampleMachine();
    const ownEnd = ownCpuSeconds();
    const usage = await worker.usage();
    const workerCpuSeconds = usage.cpuSeconds - before.worker.cpuSeconds;
    // The first analysis's delivery is checked before a second one adds to the fake's calls.
    const delivery = checkDelivery(fake, execution);
    const secondDay = options.secondDay
      ? await analyseAgain(env, worker, {
          owner,
          changed: changeOnePercentOf(model.authorizationDetails),
        })
      : undefined;
    const rows = Object.fromEntries(
      (delivery.manifests[0]?.reports ?? []).map((r) => [r.type, r.rows]),
    ) as Record<ReportType, number>;
    const formats: SingleAccountResult["bytesPerFormat"] = {};
    for (const file of delivery.files) {
      const format = file.format as ReportFormat | "xlsx";
      const total = formats[format] ?? { rows: 0, bytes: 0 };
      formats[format] = {
        rows: total.rows + (rows[file.name as ReportType] ?? 0),
        bytes: total.bytes + file.bytes,
      };
    }
    return {
      execution,
      ...(secondDay ? { secondDay } : {}),
      result: {
        size,
        workbook,
        formats: env.formats,
        principals: principalsOf(size),
        executionId,
        timing: phasesOf(execution, triggeredAt, { lines: worker.lines, rss: worker.rss, usage }),
        rows,
        bytesPerFormat: formats,
        objects: delivery.objects,
        deliveredBytes: delivery.bytes,
        uploadedBytes: delivery.uploadedBytes,
        kinds: delivery.kinds,
        peakRssBytes: usage.maxRssBytes,
        workerCpuSeconds,
        machine: machineLoadBetween(
          before.machine,
          machineEnd,
          workerCpuSeconds + ownEnd - before.own,
        ),
      },
    };
  } finally {
    await worker.stop();
    await fake.close();
  }
}

/** The account analysed again after 1% of its principals changed: a daily run with changes. */
export interface SecondDay {
  changedPrincipals: number;
  changes: number;
  findings: number;
  totalMs: number;
  /** The second analysis's worker CPU. */
  workerCpuSeconds: number;
  /** The worker's peak RSS over both analyses (its lifetime maximum, from getrusage). */
  peakRssBytes: number;
}

async function analyseAgain(
  env: BenchEnvironment,
  worker: WorkerChild,
  input: { owner: Parameters<typeof triggerAnalysis>[1]["owner"]; changed: number },
): Promise<SecondDay> {
  const before = await worker.usage();
  const triggeredAt = Date.now();
  const { executionId } = await triggerAnalysis(env.ctx, {
    owner: input.owner,
    accountId: ACCOUNT_ID,
    kind: "ondemand",
  });
  await Promise.race([env.finished([executionId]), worker.crashed]);
  const totalMs = Date.now() - triggeredAt;
  const usage = await worker.usage();
  const compared = worker.lines.find(
    (line) =>
      line.executionId === executionId && line.msg === "compared with the previous analysis",
  ) as { changes?: number; findings?: number } | undefined;
  if (compared?.changes === undefined) throw new Error(`${executionId}: no comparison logged`);
  return {
    changedPrincipals: input.changed,
    changes: compared.changes,
    findings: compared.findings ?? 0,
    totalMs,
    workerCpuSeconds: usage.cpuSeconds - before.cpuSeconds,
    peakRssBytes: usage.maxRssBytes,
  };
}

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString("en-US")} MiB`;

export function secondDayTable(day: SecondDay): string {
  return [
    "| principals changed | changes | findings | trigger → manifest | worker CPU (≤ 60 s) | worker peak RSS over both days (≤ 1 GiB) |",
    "| --- | --- | --- | --- | --- | --- |",
    `| ${day.changedPrincipals} | ${day.changes.toLocaleString("en-US")} | ${day.findings.toLocaleString("en-US")} | ${(day.totalMs / 1000).toFixed(1)} s | ${day.workerCpuSeconds.toFixed(1)} s | ${mib(day.peakRssBytes)} |`,
  ].join("\n");
}
