import {
  beginAnalysisResult,
  deleteAccessChanges,
  type Executor,
  finishAnalysisResult,
  getSnapshotOfExecution,
  insertAccessChanges,
  insertPrincipalResults,
  insertResourceResults,
  previousAnalysisResult,
  principalResultPages,
  recordComparison,
  recordFindings,
  resourceResultPages,
  type StoredAccessChange,
  type StoredResourceResult,
} from "@sightline/db";
import {
  type AccessChange,
  type ChangeCause,
  DEFAULT_REVIEW_SETTINGS,
  type ExecutionWarning,
  type ReviewSettings,
} from "@sightline/domain";
import {
  type AccessChangeReportRow,
  type ReportFormat,
  type WrittenReport,
  writeReport,
} from "@sightline/reports";
import { FindingCollector, ocsfFinding } from "../findings/findings.ts";
import { numberAgreement } from "../results/number-agreement.ts";
import { readReachDictionary, readReachDictionaryHead } from "../results/reach-dictionary.ts";
import type { ReachDictionary } from "../results/reach-encoding.ts";
import {
  currentResultsVersion,
  encodeReachDictionary,
  storedPrincipal,
  storedResource,
} from "../results/result-records.ts";
import { type AnalysisForResults, ResultsRecorder } from "../results/results-recorder.ts";
import { changeCauses } from "./change-cause.ts";
import { type ComparisonContext, comparePrincipals, compareResources } from "./compare-results.ts";

/** Changes kept in memory for the alerts; the rest are in the store and the report. */
export const MAX_ALERT_CHANGES = 10_000;
const BATCH = 200;
const RESOURCE_PAGE = 20;

/**
 * Runs a write as the attempt holding the job's lease (`JobLease.fenced`), or throws writing
 * nothing; the default writes unfenced (tests, the CLI).
 */
export type FencedWrite = <T>(write: (tx: Executor) => Promise<T>) => Promise<T>;

const unfenced =
  (db: Executor): FencedWrite =>
  (write) =>
    write(db);

interface ExecutionKey {
  executionId: string;
  customerId: string;
  accountId: string;
  provider: string;
  analysisTime: Date;
}

/**
 * Stores a comparison's changes as they come, a batch at a time, each with its cause (after the
 * execution's earlier changes are deleted: `start`); keeps the first `MAX_ALERT_CHANGES`, with
 * their causes, for the alerts.
 */
export class ChangeWriter {
  readonly alertChanges: AccessChange[] = [];
  count = 0;
  #pending: StoredAccessChange[] = [];

  constructor(
    private readonly fenced: FencedWrite,
    private readonly execution: ExecutionKey,
    private readonly causeOf: (change: AccessChange) => ChangeCause,
  ) {}

  async start(): Promise<void> {
    await this.fenced((tx) => deleteAccessChanges(tx, this.execution.executionId));
  }

  async add(change: AccessChange): Promise<void> {
    const cause = this.causeOf(change);
    if (this.alertChanges.length < MAX_ALERT_CHANGES) this.alertChanges.push({ ...change, cause });
    this.#pending.push({ changeId: change.changeId, kind: change.kind, change, cause });
    this.count++;
    if (this.#pending.length >= BATCH) await this.flush();
  }

  /**
   * Stores every change of `streams`, in order, then the last batch. (A loop of its own: in the
   * body of a long function, thousands of turns made V8 optimise that whole function again at
   * every event step, which cost more CPU than the step's analysis.)
   */
  async addAll(streams: readonly AsyncIterable<AccessChange>[]): Promise<void> {
    for (const stream of streams) for await (const change of stream) await this.add(change);
    await this.flush();
  }

  async flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    const first = this.count - batch.length;
    await this.fenced((tx) => insertAccessChanges(tx, this.execution, batch, first));
  }
}

/**
 * Stores one analysis's records in batches (`ResultsRecorder`: built while the reports were
 * written, or now); `collector` sees every record on the way.
 */
export async function storeAnalysisResults(
  db: Executor,
  execution: ExecutionKey,
  recorder: ResultsRecorder,
  collector?: FindingCollector,
  fenced: FencedWrite = unfenced(db),
): Promise<{ principals: number; resources: number; reachDictionary: ReachDictionary }> {
  const { executionId } = execution;
  const records = recorder.records();
  await fenced((tx) =>
    beginAnalysisResult(tx, {
      executionId,
      customerId: execution.customerId,
      accountId: execution.accountId,
      provider: execution.provider,
      analysisTime: execution.analysisTime,
      resultsVersion: currentResultsVersion(),
      previousExecutionId: null,
    }),
  );
  for (let i = 0; i < records.principals.length; i += BATCH) {
    const batch = records.principals.slice(i, i + BATCH);
    for (const { head } of batch) collector?.addPrincipal(head);
    await fenced((tx) =>
      insertPrincipalResults(
        tx,
        executionId,
        batch.map((p) => p.stored),
      ),
    );
  }
  for (let i = 0; i < records.resources.length; i += RESOURCE_PAGE) {
    const batch = records.resources.slice(i, i + RESOURCE_PAGE);
    for (const { head, summary } of batch) collector?.addResource(head, summary);
    await fenced((tx) =>
      insertResourceResults(
        tx,
        executionId,
        batch.map((r) => r.stored),
      ),
    );
  }
  const counts = { principals: records.principals.length, resources: records.resources.length };
  const reach = await encodeReachDictionary(records.reachDictionary);
  await fenced((tx) =>
    finishAnalysisResult(tx, executionId, { ...counts, reachDictionary: reach }),
  );
  return { ...counts, reachDictionary: records.reachDictionary };
}

/** An execution's stored principals in ARN order, a page at a time, decoded only when needed. */
export async function* principalsOf(db: Executor, executionId: string) {
  for await (const page of principalResultPages(db, executionId))
    for (const stored of page) yield storedPrincipal(stored);
}

/**
 * Resources as `principalsOf`, in small pages: one may hold 10,000 principals' access. Their
 * reach dictionary is read from the store when first needed, unless `known` (the analysis just
 * stored: its 60 MB of JSON on the large account are not read back).
 */
export async function* resourcesOf(
  db: Executor,
  executionId: string,
  known?: ReachDictionary,
  renumbered?: (stored: StoredResourceResult) => boolean,
) {
  let dictionary: Promise<ReachDictionary> | undefined = known && Promise.resolve(known);
  const dictionaryOf = () => {
    dictionary ??= readReachDictionary(db, executionId).then((found) => {
      if (!found) throw new Error(`The results of ${executionId} have no reach dictionary.`);
      return found;
    });
    return dictionary;
  };
  for await (const page of resourceResultPages(db, executionId, RESOURCE_PAGE))
    for (const stored of page) yield storedResource(stored, dictionaryOf, renumbered);
}

export const accessChangeRow = (
  change: AccessChange,
  analysisTime: Date,
  previousTime: Date | undefined,
): AccessChangeReportRow => ({
  analysis_time: analysisTime,
  previous_analysis_time: previousTime,
  change_id: change.changeId,
  change: change.change,
  kind: change.kind,
  principal_arn: change.principalArn,
  principal_name: change.principalName,
  principal_type: change.principalType,
  service_name: change.serviceName,
  access_capability: change.accessCapability,
  resource_arn: change.resourceArn,
  reach: change.reach ?? "",
  confidential: change.confidential,
  before: change.before,
  after: change.after,
  granted_by: change.grantedBy,
});

export interface AnalysisChanges {
  /** `access-changes` and `findings`, to deliver with the other reports. */
  reports: WrittenReport[];
  /** The first `MAX_ALERT_CHANGES` changes, for the alerts. */
  changes: AccessChange[];
  counts: { changes: number; findings: number; baseline: boolean };
  warnings: ExecutionWarning[];
}

/**
 * Stores the analysis's results, compares them with the account's previous successful analysis
 * (re-analysing its snapshot first when it was stored by another engine or capability map:
 * `reanalyse`), records the changes and findings, and writes them as reports into `dir`.
 * Neither analysis is held whole: both are read back page by page in ARN order.
 */
export async function recordAnalysisChanges(input: {
  db: Executor;
  execution: ExecutionKey;
  /** This analysis's results: released once stored (the reports must be written by then). */
  results: ResultsRecorder;
  /**
   * A stored snapshot (the previous execution's) analysed by this engine. It runs once this
   * analysis's results are stored and released.
   */
  reanalyse: (snapshot: Buffer) => Promise<AnalysisForResults>;
  settings?: ReviewSettings;
  dir: string;
  formats: readonly ReportFormat[];
  /** Every write as the lease holder (the worker's job lease). */
  fenced?: FencedWrite;
  /** Each change's cause, in the comparison's order (default: `changeCauses()`, from the change). */
  causeOf?: (change: AccessChange) => ChangeCause;
}): Promise<AnalysisChanges> {
  const { db, execution } = input;
  const fenced = input.fenced ?? unfenced(db);
  const settings = input.settings ?? DEFAULT_REVIEW_SETTINGS;
  const collector = new FindingCollector(execution, execution.analysisTime, settings);
  const stored = await storeAnalysisResults(db, execution, input.results, collector, fenced);
  input.results.release();
  const { reachDictionary } = stored;
  const warnings: ExecutionWarning[] = [];
  let previous = await previousAnalysisResult(db, execution);
  if (previous && previous.resultsVersion !== currentResultsVersion()) {
    const snapshot = await getSnapshotOfExecution(db, previous.executionId);
    if (snapshot) {
      const again = await input.reanalyse(snapshot.data);
      const recorder = new ResultsRecorder(again);
      await storeAnalysisResults(db, previous, recorder, undefined, fenced);
      recorder.release();
      // Its own comparison stays what it was when it was delivered.
      const { changes, findings, previousExecutionId } = previous;
      if (changes !== null && findings !== null)
        await fenced((tx) =>
          recordComparison(tx, previous?.executionId ?? "", {
            previousExecutionId,
            changes,
            findings,
          }),
        );
    } else {
      warnings.push({
        code: "changes-baseline",
        message: `The previous analysis (${previous.executionId}) was made by another engine version and its snapshot is gone: this analysis is a new baseline, with no changes.`,
      });
      previous = undefined;
    }
  }
  const context: ComparisonContext = {
    previousExecutionId: previous?.executionId ?? "",
    executionId: execution.executionId,
    confidentialValues: new Set(settings.confidentialValues.map((v) => v.toLowerCase())),
  };
  const writer = new ChangeWriter(fenced, execution, input.causeOf ?? changeCauses());
  const previousTime = previous?.analysisTime;
  // One pass: each change goes to the report and, a batch at a time, to the store.
  async function* changeRows(): AsyncGenerator<AccessChangeReportRow> {
    if (!previous) return;
    // This analysis numbered its principals anew: where the previous one's numbers name others,
    // equal bytes are not the same reach (`numberAgreement`).
    const previousHead = await readReachDictionaryHead(db, previous.executionId);
    const renumbered = previousHead && numberAgreement(previousHead, reachDictionary);
    const streams = [
      comparePrincipals(
        context,
        principalsOf(db, previous.executionId),
        principalsOf(db, execution.executionId),
      ),
      compareResources(
        context,
        resourcesOf(db, previous.executionId, undefined, renumbered),
        resourcesOf(db, execution.executionId, reachDictionary, renumbered),
      ),
    ];
    for (const stream of streams)
      for await (const change of stream) {
        await writer.add(change);
        yield accessChangeRow(change, execution.analysisTime, previousTime);
      }
    await writer.flush();
  }
  await writer.start();
  const formats = [
    ...new Set<ReportFormat>(["jsonl", ...input.formats.filter((f) => f !== "csv")]),
  ];
  const changesReport = await writeReport("access-changes", changeRows(), {
    dir: input.dir,
    formats,
  });
  const { current, resolved } = await fenced((tx) =>
    recordFindings(tx, execution, collector.findings()),
  );
  const ocsf = function* () {
    for (const row of [...current, ...resolved]) yield ocsfFinding(row, execution);
  };
  const findingsReport = await writeReport("findings", ocsf(), { dir: input.dir, formats });
  const previousExecutionId = previous?.executionId ?? null;
  await fenced((tx) =>
    recordComparison(tx, execution.executionId, {
      previousExecutionId,
      changes: writer.count,
      findings: current.length,
    }),
  );
  return {
    reports: [changesReport, findingsReport],
    changes: writer.alertChanges,
    counts: { changes: writer.count, findings: current.length, baseline: previous === undefined },
    warnings,
  };
}
