import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  type CollectedAccount,
  collectAccount,
  fullCollectionCalls,
  incrementalReadCalls,
  patchCollection,
  readEventTargets,
} from "@sightline/aws";
import {
  type AccountContext,
  claimPendingEvents,
  type ExecutionRow,
  finishExecution,
  getReviewSettings,
  getSnapshotOfExecution,
  latestSnapshotHead,
  markEventsApplied,
  setExecutionStage,
} from "@sightline/db";
import {
  AppError,
  type AwsEventTarget,
  type AwsPartition,
  type ExecutionWarning,
} from "@sightline/domain";
import type { Logger } from "@sightline/logging";
import { alertOnChanges } from "../alerts/alert-on-changes.ts";
import type { AnalysisSettings } from "../analysis/analysis-settings.ts";
import { obtainCredentials } from "../analysis/obtain-credentials.ts";
import {
  type AnalysisChanges,
  type FencedWrite,
  recordAnalysisChanges,
} from "../changes/analysis-changes.ts";
import { changeCauses } from "../changes/change-cause.ts";
import { recordIncrementalChanges } from "../changes/incremental-results.ts";
import type { ServiceContext } from "../context.ts";
import type { JobLease } from "../queue/job-lease.ts";
import { analyseForResults, reanalyseSnapshot } from "../results/results-input.ts";
import { ResultsRecorder } from "../results/results-recorder.ts";
import {
  isAzureCollection,
  readCollection,
  storeCollection,
} from "../snapshots/stored-collection.ts";
import { eventCauses } from "./event-causes.ts";
import type { StepBase, StepBases } from "./step-bases.ts";
import { distinctTargets, type StepTarget } from "./step-target.ts";

/** A stored snapshot older than this is not patched: the step collects the account whole. */
const MAX_SNAPSHOT_AGE_MS = 24 * 3600 * 1000;

interface StepCollection {
  collected: CollectedAccount;
  /** Why the account was collected whole, if it was. */
  fullBecause?: string;
  /**
   * The snapshot patched, and the execution it was collected by; with its model when this
   * worker kept it from that execution (`StepBases`).
   */
  base?: Omit<StepBase, "model"> & { model?: StepBase["model"] };
}

/**
 * The account as it is now: the newest stored snapshot patched with what the events name, read
 * back from AWS; or a full collection when there is no fresh snapshot, reading back would take
 * more AWS calls than collecting whole (then the analysis still steps from the snapshot), or the
 * auditor role refuses the per-entity reads (a role made from an older template).
 */
async function collectStep(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
  targets: readonly StepTarget[],
  bases: StepBases | undefined,
): Promise<StepCollection> {
  const credentials = await obtainCredentials(ctx, settings, execution, account);
  const common = {
    credentials,
    accountId: execution.accountId,
    partition: execution.provider as AwsPartition,
    ...(settings.awsClientOptions ? { clientOptions: settings.awsClientOptions } : {}),
  };
  const full = async (fullBecause: string): Promise<StepCollection> => ({
    collected: await collectAccount({
      ...common,
      ...(settings.regions ? { regions: settings.regions } : {}),
      ...settings.collection,
    }),
    fullBecause,
  });
  const whole = targets.find((t) => t.kind === "account");
  if (whole?.kind === "account") return full(`an event was not understood (${whole.reason})`);
  // The incremental reads do not list a group's members: a renamed group is read whole.
  if (targets.some((t) => t.kind === "group" && t.members === true))
    return full("a group was renamed: its members name it anew");
  // Not this step's own: an earlier attempt, killed, may have stored it (its results are not).
  const stored = await latestSnapshotHead(ctx.db, execution, execution.executionId);
  if (!stored) return full("the account has no stored snapshot to patch");
  if (ctx.now().getTime() - stored.collectedAt.getTime() > MAX_SNAPSHOT_AGE_MS)
    return full("the newest snapshot is more than a day old");
  // This worker's last step of the account, if the newest snapshot is still its own.
  const kept = bases?.take(execution, stored.executionId);
  const data = kept ? undefined : await getSnapshotOfExecution(ctx.db, stored.executionId);
  const previous = kept?.collected ?? (data ? await readCollection(data) : undefined);
  if (!previous) return full("the account has no stored snapshot to patch");
  if (isAzureCollection(previous)) return full("the stored snapshot is not an AWS account's");
  const base = { executionId: stored.executionId, collected: previous, model: kept?.model };
  // Reading back costs more AWS calls than collecting whole: collect whole, but the analysis
  // still steps from the stored snapshot (it compares the two, whatever made the newer one).
  const readCalls = incrementalReadCalls(targets as AwsEventTarget[], previous);
  const wholeCalls = fullCollectionCalls(previous);
  if (readCalls > wholeCalls) {
    const because = `reading back what the events name takes about ${readCalls} AWS calls, a full collection ${wholeCalls}`;
    return { ...(await full(because)), base };
  }
  try {
    const reads = await readEventTargets({
      ...common,
      targets: targets as AwsEventTarget[],
      previous: previous.snapshot,
    });
    return {
      collected: patchCollection(previous, reads),
      base,
    };
  } catch (error) {
    if (error instanceof AppError && error.code === "INCREMENTAL_READ_DENIED")
      return full(error.message);
    throw error;
  }
}

/**
 * One event step of an account: its pending events' targets read back and patched into the
 * newest snapshot, the account analysed, its results stored as a new version and compared with
 * the previous one, alerts enqueued, the events marked applied — every write as the holder of the
 * job's lease. No report is delivered: the daily analysis does that.
 */
export async function runEventStep(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
  {
    lease,
    log,
    bases,
  }: {
    lease: JobLease;
    log: Logger;
    /** This worker's kept bases: the step starts from one, and keeps its own once it succeeded. */
    bases?: StepBases;
  },
): Promise<{ changes: number; events: number; warnings: ExecutionWarning[] }> {
  const events = await claimPendingEvents(ctx.db, execution, execution.executionId);
  const stepEvents = events.map((e) => ({
    eventId: e.eventId,
    targets: (e.targets ?? []) as unknown as StepTarget[],
  }));
  const targets = distinctTargets(stepEvents.flatMap((e) => e.targets));
  const warnings: ExecutionWarning[] = [];
  await setExecutionStage(ctx.db, execution.executionId, "collecting");
  const { collected, fullBecause, base } = await collectStep(
    ctx,
    settings,
    execution,
    account,
    targets,
    bases,
  );
  if (fullBecause) {
    warnings.push({ code: "event-full-collection", message: `Collected whole: ${fullBecause}` });
    log.warn({ reason: fullBecause }, "event step: full collection");
  }
  lease.check();
  await lease.fenced(ctx.db, (tx) => storeCollection(tx, execution, collected));
  await setExecutionStage(ctx.db, execution.executionId, "analysing");
  const analysisTime = execution.startedAt ?? ctx.now();
  const fenced: FencedWrite = (write) => lease.fenced(ctx.db, write);
  const review = await getReviewSettings(ctx.db, execution.customerId);
  const dir = path.join(settings.workDir, execution.executionId, String(execution.attempts));
  try {
    const causeOf = changeCauses(eventCauses(stepEvents, collected.snapshot));
    let changes: AnalysisChanges | undefined;
    let model: StepBase["model"] | undefined;
    if (base) {
      const outcome = await recordIncrementalChanges({
        db: ctx.db,
        execution: { ...execution, analysisTime },
        previousExecutionId: base.executionId,
        before: base.collected,
        ...(base.model ? { beforeModel: base.model } : {}),
        after: collected,
        settings: review,
        fenced,
        causeOf,
        storing: () => setExecutionStage(ctx.db, execution.executionId, "storing"),
      });
      if (outcome.kind === "stepped") {
        changes = outcome.changes;
        model = outcome.model;
        log.info(
          // `kept`: started from this worker's last step of the account (`StepBases`).
          { remade: outcome.remade, base: base.model ? "kept" : "stored" },
          "event step: analysed what the events reach",
        );
      } else {
        warnings.push({
          code: "event-whole-analysis",
          message: `Analysed whole: ${outcome.reason}`,
        });
        log.info({ reason: outcome.reason }, "event step: whole analysis");
      }
    }
    if (!changes) {
      const results = new ResultsRecorder(analyseForResults(collected));
      await mkdir(dir, { recursive: true });
      await setExecutionStage(ctx.db, execution.executionId, "storing");
      changes = await recordAnalysisChanges({
        db: ctx.db,
        execution: { ...execution, analysisTime },
        results,
        reanalyse: reanalyseSnapshot,
        settings: review,
        dir,
        formats: ["jsonl"],
        fenced,
        causeOf,
      });
    }
    await setExecutionStage(ctx.db, execution.executionId, "alerting");
    await alertOnChanges(ctx, execution, analysisTime, changes.changes, { lease, log });
    const all = [...warnings, ...changes.warnings];
    await lease.fenced(ctx.db, async (tx) => {
      await markEventsApplied(tx, execution, execution.executionId);
      await finishExecution(tx, execution.executionId, {
        status: "succeeded",
        reportKeys: [],
        warnings: all,
      });
    });
    // Stored and finished: the account's next step in this worker may start from it.
    if (model) bases?.keep(execution, { executionId: execution.executionId, collected, model });
    else bases?.drop(execution);
    return { changes: changes.counts.changes, events: events.length, warnings: all };
  } finally {
    await rm(path.join(settings.workDir, execution.executionId), { recursive: true, force: true });
  }
}
