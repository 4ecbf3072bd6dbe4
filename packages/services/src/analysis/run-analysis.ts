import { mkdir, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import type { CollectedAccount } from "@sightline/aws";
import {
  type AccountContext,
  assignReportMinute,
  type ExecutionRow,
  finishExecution,
  getReviewSettings,
  loadAccountContext,
  markEventsApplied,
  multipartUploadsBefore,
  requeueExecution,
  setExecutionStage,
  startExecution,
} from "@sightline/db";
import {
  AppError,
  type ExecutionFailure,
  type ExecutionWarning,
  isAzureProvider,
  type Provider,
} from "@sightline/domain";
import { analyzeAccount, createAccountModel, type Issue } from "@sightline/engine";
import { analyzeAzureSubscription } from "@sightline/engine/azure";
import type { Logger } from "@sightline/logging";
import {
  fullRowFormats,
  type ReportFiles,
  type ReportFormat,
  type ReportProvider,
  type WrittenReport,
  type WrittenWorkbookFile,
  writeAccountReports,
  writeAzureReports,
} from "@sightline/reports";
import { alertOnChanges } from "../alerts/alert-on-changes.ts";
import { type AnalysisChanges, recordAnalysisChanges } from "../changes/analysis-changes.ts";
import type { ServiceContext } from "../context.ts";
import { deliverReports } from "../delivery/deliver-reports.ts";
import { proveDestination, s3DestinationOf } from "../delivery/delivery-verification.ts";
import { abortOpenUploads, uploadRecorder } from "../delivery/open-uploads.ts";
import { openReportInbox, type ReportInbox } from "../delivery/report-inbox.ts";
import { type JobLease, LeaseLostError, UNLEASED } from "../queue/job-lease.ts";
import { awsResultsInput, azureResultsInput, reanalyseSnapshot } from "../results/results-input.ts";
import { ResultsRecorder } from "../results/results-recorder.ts";
import { isAzureCollection } from "../snapshots/stored-collection.ts";
import type { AnalysisSettings } from "./analysis-settings.ts";
import { collectOrReuse } from "./collect-or-reuse.ts";
import { diskFullFailure } from "./disk-full.ts";
import {
  countingPrincipals,
  DEFAULT_PROGRESS_INTERVAL_SECONDS,
  StageProgress,
} from "./stage-progress.ts";

export type RunOutcome =
  | { status: "succeeded"; reportKeys: string[] }
  | { status: "failed"; failure: ExecutionFailure }
  /** A failure that may pass: the job is to run again. */
  | { status: "retrying"; error: AppError }
  /** The execution had already ended (a job delivered twice). */
  | { status: "skipped" };

/** Engine input issues shown in the execution and manifest; the rest are counted. */
const MAX_ISSUE_WARNINGS = 50;

/** A collector's warning: AWS names a resource by ARN, Azure by ARM or directory object ID. */
interface CollectedWarning {
  kind: string;
  message: string;
  resourceArn?: string;
  resourceId?: string;
}

function warningsOf(collected: readonly CollectedWarning[], issues: readonly Issue[]) {
  const warnings: ExecutionWarning[] = collected.map((w) => {
    const resource = w.resourceArn ?? w.resourceId;
    return { code: w.kind, message: w.message, ...(resource ? { resourceArn: resource } : {}) };
  });
  for (const issue of issues.slice(0, MAX_ISSUE_WARNINGS))
    warnings.push({ code: "input-issue", message: `${issue.path}: ${issue.message}` });
  if (issues.length > MAX_ISSUE_WARNINGS)
    warnings.push({
      code: "input-issue",
      message: `${issues.length - MAX_ISSUE_WARNINGS} more input issues of the account's IAM configuration`,
    });
  return warnings;
}

/** The key segment of a provider: every AWS partition is `aws`, both Azure clouds `azure`. */
const reportProviderOf = (provider: string): ReportProvider =>
  isAzureProvider(provider as Provider) ? "azure" : "aws";

const formatsFor = (settings: AnalysisSettings, hive: boolean): ReportFormat[] => [
  ...new Set<ReportFormat>([...settings.formats, ...(hive ? (["parquet"] as const) : [])]),
];

/**
 * Collects (or reuses the stored collection), analyses and writes the report files. Only the
 * files and warnings leave this function: the collection, model and analysis (hundreds of MiB
 * for a large account) become garbage before delivery, instead of slowing every collection
 * the upload buffers cause.
 */
async function analyseAndWrite(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
  output: { analysisTime: Date; dir: string; formats: ReportFormat[]; files?: ReportFiles },
  { log, lease, stages }: { log: Logger; lease: JobLease; stages: StageProgress },
): Promise<{
  reports: WrittenReport[];
  warnings: ExecutionWarning[];
  workbook?: WrittenWorkbookFile;
  changes: AnalysisChanges;
}> {
  await stages.enter("collecting");
  const collected = await collectOrReuse(ctx, settings, execution, account, lease);
  log.info({ warnings: collected.warnings.length }, "collected");
  lease.check();
  await stages.enter("analysing");
  // The results are stored and compared with the previous analysis's, then delivered as reports.
  const review = await getReviewSettings(ctx.db, execution.customerId);
  // The reports read the analysis through `results`, which keeps what the store needs.
  const compare = async (results: ResultsRecorder) => {
    await stages.enter("storing");
    return recordAnalysisChanges({
      db: ctx.db,
      execution: { ...execution, analysisTime: output.analysisTime },
      results,
      reanalyse: reanalyseSnapshot,
      settings: review,
      dir: output.dir,
      formats: output.formats,
      fenced: (write) => lease.fenced(ctx.db, write),
    });
  };
  if (isAzureCollection(collected)) {
    const analysis = analyzeAzureSubscription(collected.snapshot);
    const results = new ResultsRecorder(azureResultsInput(analysis));
    await stages.enter("writing");
    const reports = await writeAzureReports({
      snapshot: collected.snapshot,
      analysis: countingPrincipals(results.observed(), (count) => stages.count(count)),
      ...output,
    });
    const changes = await compare(results);
    const warnings = [...warningsOf(collected.warnings, analysis.issues), ...changes.warnings];
    return { reports: [...reports, ...changes.reports], warnings, changes };
  }
  const written = await writeAwsReports(
    collected,
    execution.accountId,
    { ...output, workbook: settings.workbook === true },
    stages,
  );
  const { reports, workbook } = written;
  const changes = await compare(written.results);
  const warnings = [...written.warnings, ...changes.warnings];
  return {
    reports: [...reports, ...changes.reports],
    warnings,
    changes,
    ...(workbook ? { workbook } : {}),
  };
}

/**
 * An AWS account's model and analysis, and its reports written. The model and the analysis are
 * this function's alone: once the results recorder lets go of them (their results stored), the
 * comparison with the previous analysis runs without them.
 */
async function writeAwsReports(
  collected: CollectedAccount,
  accountId: string,
  output: {
    analysisTime: Date;
    dir: string;
    formats: ReportFormat[];
    workbook: boolean;
    files?: ReportFiles;
  },
  stages: StageProgress,
): Promise<{
  reports: WrittenReport[];
  workbook?: WrittenWorkbookFile;
  results: ResultsRecorder;
  warnings: ExecutionWarning[];
}> {
  const model = createAccountModel(collected.snapshot);
  const analysis = analyzeAccount(model, { accounts: [accountId] });
  const results = new ResultsRecorder(awsResultsInput(analysis, collected));
  await stages.enter("writing");
  // The principals' access rows are made as the reports read them: their count is the progress.
  const { reports, workbook } = await writeAccountReports({
    model,
    analysis: countingPrincipals(results.observed(), (count) => stages.count(count)),
    metadata: collected.metadata,
    ...output,
  });
  const warnings = warningsOf(collected.warnings, analysis.issues);
  return { reports, ...(workbook ? { workbook } : {}), results, warnings };
}

/**
 * Proves the destination (before the account is even collected: an inbox its owner has not
 * proven receives nothing), analyses, writes the reports and delivers them under the
 * execution's report minute; records the success.
 */
async function analyseAndDeliver(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  execution: ExecutionRow,
  account: AccountContext,
  inbox: ReportInbox,
  {
    workDir,
    log,
    lease,
    stages,
  }: { workDir: string; log: Logger; lease: JobLease; stages: StageProgress },
): Promise<string[]> {
  const destination = s3DestinationOf(account.delivery);
  const proofWarnings = destination
    ? await proveDestination(ctx.db, destination, inbox, {
        allowUnproven: settings.allowUnprovenDestinations === true,
      })
    : [];
  for (const warning of proofWarnings) log.warn({ inbox: inbox.location }, warning.message);
  const analysisTime = execution.startedAt ?? ctx.now();
  // An earlier attempt's files (its worker died) go; this attempt writes in a folder of its own,
  // so that one that lost its lease and wakes up late cannot remove or mix into this one's.
  await rm(path.dirname(workDir), { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const flags = account.delivery.featureFlags;
  const written = await analyseAndWrite(
    ctx,
    settings,
    execution,
    account,
    {
      analysisTime,
      dir: workDir,
      formats: formatsFor(settings, flags.hiveEnabled === true),
      ...(settings.files ? { files: settings.files } : {}),
    },
    { log, lease, stages },
  );
  lease.check();
  const { reports } = written;
  const warnings = [...proofWarnings, ...written.warnings];
  log.info({ rows: Object.fromEntries(reports.map((r) => [r.type, r.rows])) }, "reports written");
  log.info(written.changes.counts, "compared with the previous analysis");
  await stages.enter("delivering");
  const reportKeys = await deliverReports({
    inbox,
    executionId: execution.executionId,
    target: {
      provider: reportProviderOf(execution.provider),
      customerId: execution.customerId,
      accountId: execution.accountId,
      analysisTime,
      reportMinute: await assignReportMinute(ctx.db, execution.executionId, analysisTime),
      latest: flags.latestReportEnabled === true,
      hive: flags.hiveEnabled === true,
      // Full rows and the access paths (AWS) go out in Parquet when the formats name only CSV.
      formats: [
        ...new Set<ReportFormat>([...settings.formats, ...fullRowFormats(settings.formats)]),
      ],
    },
    reports,
    ...(written.workbook ? { workbook: written.workbook } : {}),
    warnings,
    fence: (write) => lease.fenced(ctx.db, write),
    signal: lease.signal,
    onProgress: (count) => stages.count(count),
  });
  // Enqueued before the success is recorded: an execution that has succeeded has its alerts.
  await stages.enter("alerting");
  await alertOnChanges(ctx, execution, analysisTime, written.changes.changes, { log, lease });
  await lease.fenced(ctx.db, async (tx) => {
    // The events that arrived before this collection began are in it: no step applies them.
    if (execution.startedAt)
      await markEventsApplied(tx, execution, execution.executionId, execution.startedAt);
    await finishExecution(tx, execution.executionId, { status: "succeeded", reportKeys, warnings });
  });
  log.info({ inbox: inbox.location, objects: reportKeys.length }, "delivered");
  return reportKeys;
}

/**
 * One attempt at an execution: credentials → collection (stored) → analysis → reports →
 * delivery (manifest last) → outcome. Failures become data: a failure that cannot pass, or the
 * last attempt's, ends the execution `failed` with its code and message.
 */
export async function runAnalysis(
  ctx: ServiceContext,
  settings: AnalysisSettings,
  executionId: string,
  attempt: { final: boolean; lease?: JobLease },
): Promise<RunOutcome> {
  const lease = attempt.lease ?? UNLEASED;
  const execution = await startExecution(ctx.db, executionId);
  if (!execution) return { status: "skipped" };
  const log = ctx.logger.child({ executionId, attempt: execution.attempts });
  const workDir = path.join(settings.workDir, executionId, String(execution.attempts));
  const stages = new StageProgress(
    (stage, progress) =>
      setExecutionStage(ctx.db, executionId, stage, progress, execution.attempts),
    (settings.progressIntervalSeconds ?? DEFAULT_PROGRESS_INTERVAL_SECONDS) * 1000,
  );
  try {
    const account = await loadAccountContext(ctx.db, execution);
    if (!account)
      throw new AppError(
        "NOT_FOUND",
        `The customer of account ${execution.accountId} no longer exists`,
      );
    const attemptOf = { executionId, attempt: execution.attempts };
    const inbox = openReportInbox(
      settings,
      account.delivery,
      uploadRecorder(ctx.db, log, attemptOf),
    );
    try {
      // What an earlier attempt, killed mid-upload, left open in an inbox.
      await abortOpenUploads(
        ctx.db,
        settings,
        await multipartUploadsBefore(ctx.db, executionId, execution.attempts),
        log,
      );
      const reportKeys = await analyseAndDeliver(ctx, settings, execution, account, inbox, {
        workDir,
        log,
        lease,
        stages,
      });
      return { status: "succeeded", reportKeys };
    } finally {
      inbox.destroy();
    }
  } catch (thrown) {
    // Another attempt owns the execution now: this one records nothing.
    if (thrown instanceof LeaseLostError) throw thrown;
    const error =
      thrown instanceof AppError
        ? thrown
        : (diskFullFailure(thrown, "the reports", `the work directory ${settings.workDir}`) ??
          new AppError(
            "INTERNAL",
            "Sightline failed internally; the operator's logs have the details",
            {
              cause: thrown,
            },
          ));
    if (!(thrown instanceof AppError)) log.error({ err: thrown }, "analysis failed unexpectedly");
    if (error.retryable && !attempt.final) {
      log.warn({ code: error.code }, "attempt failed; it will run again");
      await lease.fenced(ctx.db, (tx) =>
        requeueExecution(tx, executionId, {
          code: error.code,
          message: `attempt ${execution.attempts} failed: ${error.message}`,
        }),
      );
      return { status: "retrying", error };
    }
    const failure = { code: error.code, message: error.message };
    await lease.fenced(ctx.db, (tx) =>
      finishExecution(tx, executionId, { status: "failed", failure, warnings: [] }),
    );
    log.warn({ code: error.code }, "analysis failed");
    return { status: "failed", failure };
  } finally {
    await stages.settled();
    await rm(workDir, { recursive: true, force: true });
    await rmdir(path.dirname(workDir)).catch(() => {});
  }
}
