import type { ExecutionStage } from "@sightline/domain";
import type { AccountAnalysis } from "@sightline/engine";

/** How far a counted stage has got: `done` of `total` `unit`s (principals, bytes). */
export interface StageCount {
  done: number;
  total: number;
  unit: string;
}

/** Writes the execution's stage and progress (`setExecutionStage`), for its latest attempt only. */
export type StageWriter = (stage: ExecutionStage, progress?: StageCount) => Promise<void>;

/** How often a running execution's progress is written, at most: every few seconds. */
export const DEFAULT_PROGRESS_INTERVAL_SECONDS = 3;

/**
 * What a running attempt shows `GET /executions/{id}`: its stage, written at once, and its
 * progress where countable, written at most every `intervalMs` (a 10,000-principal analysis
 * counts ten thousand times; the database hears of it a few times a minute). One write at a
 * time, in order; a failed write is dropped (showing progress never fails an analysis).
 */
export class StageProgress {
  #stage: ExecutionStage | undefined;
  #lastWrite = Number.NEGATIVE_INFINITY;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: StageWriter,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The attempt enters `stage`: written at once, without progress. */
  async enter(stage: ExecutionStage): Promise<void> {
    this.#stage = stage;
    this.#lastWrite = this.now();
    await this.#enqueue(() => this.write(stage));
  }

  /** The stage has got to `count`: written if the last write is `intervalMs` old, else passed over (a later count says more). */
  count(count: StageCount): void {
    if (this.now() - this.#lastWrite < this.intervalMs) return;
    const stage = this.#stage;
    if (!stage) return;
    this.#lastWrite = this.now();
    void this.#enqueue(() => this.write(stage, count));
  }

  /** Every write asked for so far has been made (or dropped). */
  settled(): Promise<void> {
    return this.#writing;
  }

  #enqueue(write: () => Promise<void>): Promise<void> {
    this.#writing = this.#writing.then(write).catch(() => {});
    return this.#writing;
  }
}

/**
 * The analysis, counting the principals whose access rows have been made: the engine makes
 * them lazily, as the reports (and the stored results) read them, so this is how far the
 * analysis of the principals has got. The rows come principal by principal in the principals'
 * order; one with no access has no rows, and counts as passed once a later one comes.
 */
export function countingPrincipals(
  analysis: AccountAnalysis,
  onCount: (count: StageCount) => void,
): AccountAnalysis {
  const total = analysis.principals.length;
  return {
    ...analysis,
    *principalAccessSummaries() {
      const position = new Map(analysis.principals.map((p, i) => [p.principalArn, i + 1]));
      let reached = 0;
      for (const row of analysis.principalAccessSummaries()) {
        const at = position.get(row.principalArn) ?? 0;
        if (at > reached) {
          reached = at;
          // The principals before this one are done.
          onCount({ done: at - 1, total, unit: "principals" });
        }
        yield row;
      }
      onCount({ done: total, total, unit: "principals" });
    },
  };
}
