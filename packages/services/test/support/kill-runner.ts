/**
 * kill -9 of a worker process held at one stage of an analysis (or while it sends an alert),
 * and a worker standing by that takes over: shared by the fault suite and the soak bench.
 */
import type { FakeAws } from "@sightline/aws-fake";
import { type Executor, getExecution, rawQuery } from "@sightline/db";
import type { ExecutionStage } from "@sightline/domain";
import { holdLock, someoneWaits, type startHoldingReceiver, until } from "./fault-holds.ts";
import {
  childWarnings,
  killAllWorkers,
  standbyWorker,
  type WorkerChild,
  type WorkerOptions,
} from "./fault-workers.ts";
import { checkInvariants } from "./invariants.ts";

export interface KillSetup {
  db: Executor;
  /** The database's URL (its locks hold a worker at a stage: a database of the run's own). */
  databaseUrl: string;
  fake: FakeAws;
  bucket: string;
  workDir: string;
  workers: WorkerOptions;
  receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
  /** The alert destination of the analysed account's owner. */
  destinationId: string;
  /** How long an execution may take to end after the kill. */
  endWithinSeconds: number;
}

export interface KillOutcome {
  executionId: string;
  /** Seconds from the kill to the execution's end (or the alert's delivery). */
  recoverySeconds: number;
  violations: string[];
  status: string | undefined;
  attempts: number | undefined;
  warnings: string[];
}

/** What holds an attempt at its stage until released; `held` says it is there now. */
export interface StageHold {
  held(): Promise<boolean>;
  release(): Promise<void>;
}

/** Holds the next attempt at `stage` until released; `held` says it is there now. */
async function holdAt(setup: KillSetup, stage: ExecutionStage): Promise<StageHold> {
  const pending = (operation: string) => async () =>
    setup.fake.calls.some((c) => c.operation === operation && c.status === 0);
  const locked = async (statement: string, on: Parameters<typeof someoneWaits>[1]) => {
    const lock = await holdLock(setup.databaseUrl, statement);
    return { held: () => someoneWaits(setup.db, on), release: lock.release };
  };
  const none = async () => {};
  switch (stage) {
    case "collecting":
      setup.fake.inject({
        operation: "GetAccountAuthorizationDetails",
        kind: "delay",
        delayMs: 600_000,
        times: 1,
      });
      return { held: pending("GetAccountAuthorizationDetails"), release: none };
    case "analysing":
      // Its first statement reads the review settings.
      return locked("lock table review_settings in access exclusive mode", {
        table: "review_settings",
      });
    case "writing":
      // The worker itself holds it: its files never finish writing (`holdWrites`).
      return { held: async () => true, release: none };
    case "storing":
      return locked("lock table analysis_principals in access exclusive mode", {
        table: "analysis_principals",
      });
    case "delivering":
      setup.fake.inject({
        service: "s3",
        operation: "PutObject",
        resource: setup.bucket,
        kind: "delay",
        delayMs: 600_000,
        after: 4,
        times: 1,
      });
      return { held: pending("PutObject"), release: none };
    case "alerting":
      // The enqueue's transaction takes the destination's lock first (`changesNotYetAlerted`).
      return locked(
        `select pg_advisory_xact_lock(4842774, hashtext('${setup.destinationId.replace(/'/g, "")}'))`,
        { advisory: 4842774 },
      );
  }
}

export class KillRunner {
  #current: WorkerChild | undefined;
  /** Two standing by: a worker takes a few seconds to load, two kills may come sooner. */
  readonly #spares: Promise<WorkerChild>[];
  #holdingWrites: Promise<WorkerChild>;

  private constructor(private readonly setup: KillSetup) {
    this.#spares = [this.#standby(), this.#standby()];
    this.#holdingWrites = this.#standby({ holdWrites: true });
  }

  /** Starts a worker taking jobs, and three standing by (one whose writes never end). */
  static async start(setup: KillSetup): Promise<KillRunner> {
    const runner = new KillRunner(setup);
    runner.#current = await runner.#standby();
    await runner.#current.start();
    return runner;
  }

  #standby(options: { holdWrites?: boolean } = {}): Promise<WorkerChild> {
    const started = standbyWorker({ ...this.setup.workers, ...options });
    started.catch(() => {});
    return started;
  }

  /** Kills the working worker and starts the one standing by; the moment of the kill. */
  async #killAndTakeOver(): Promise<number> {
    await this.#current?.kill();
    const killedAt = Date.now();
    this.#current = await (this.#spares.shift() ?? this.#standby());
    this.#spares.push(this.#standby());
    await this.#current.start();
    return killedAt;
  }

  async #check(executionId: string, recoverySeconds: number): Promise<KillOutcome> {
    const { violations } = await checkInvariants({
      db: this.setup.db,
      executionIds: [executionId],
      inbox: { kind: "s3", fake: this.setup.fake, bucket: this.setup.bucket },
      workDir: this.setup.workDir,
      receivers: [this.setup.receiver],
      endWithinSeconds: this.setup.endWithinSeconds,
    });
    const execution = await getExecution(this.setup.db, executionId);
    return {
      executionId,
      recoverySeconds,
      violations,
      status: execution?.status,
      attempts: execution?.attempts,
      warnings: execution?.warnings.map((w) => w.code) ?? [],
    };
  }

  /**
   * Runs an analysis or an event step (`trigger` answers its execution), kills its worker held
   * at `stage` (by `hold` when given, which is set up before the trigger), checks the recovery.
   * `afterKill` looks at what the killed attempt left, before the hold is released and another
   * attempt runs.
   */
  async killAt(
    stage: ExecutionStage,
    trigger: () => Promise<string>,
    hold?: () => Promise<StageHold>,
    afterKill?: (executionId: string) => Promise<void>,
  ): Promise<KillOutcome> {
    if (stage === "writing") {
      await this.#current?.kill();
      this.#current = await this.#holdingWrites;
      this.#holdingWrites = this.#standby({ holdWrites: true });
      await this.#current.start();
    }
    const holding = await (hold ? hold() : holdAt(this.setup, stage));
    let executionId: string;
    let killedAt: number;
    // Released whatever happens: a hold left behind would stop the suite's next case too.
    try {
      executionId = await trigger();
      await until(
        async () =>
          (await getExecution(this.setup.db, executionId))?.stage === stage &&
          (await holding.held()),
        120,
        `execution ${executionId} held at ${stage}`,
      );
      killedAt = await this.#killAndTakeOver();
      await afterKill?.(executionId);
    } finally {
      await holding.release();
    }
    await until(
      async () => (await getExecution(this.setup.db, executionId))?.finishedAt,
      this.setup.endWithinSeconds,
      `execution ${executionId} ends`,
    ).catch(() => undefined);
    const finished = (await getExecution(this.setup.db, executionId))?.finishedAt;
    return this.#check(executionId, ((finished?.getTime() ?? Date.now()) - killedAt) / 1000);
  }

  /**
   * Kills the worker sending the alert of `executionId` (the receiver takes the request and
   * holds its answer); the next worker sends it again.
   */
  async killWhileSending(executionId: string): Promise<KillOutcome & { alertIds: string[] }> {
    const { receiver } = this.setup;
    const ofThis = () =>
      receiver.received.filter(
        (r) => (JSON.parse(r.body) as { executionId?: string }).executionId === executionId,
      );
    await until(() => ofThis().length > 0, 120, "the alert reaches the receiver");
    const killedAt = await this.#killAndTakeOver();
    receiver.hold(false);
    receiver.answerHeld();
    const delivered = await until(
      async () => {
        const [row] = await this.setup.db.execute(
          rawQuery(
            `select status, extract(epoch from updated_at) * 1000 as at from alert_deliveries
             where execution_id = $1`,
            [executionId],
          ),
        );
        return row?.status === "delivered" && Number(row.at);
      },
      this.setup.endWithinSeconds,
      "the alert delivered",
    );
    const alertIds = ofThis().map((r) => String(r.headers["sightline-alert-id"]));
    return { ...(await this.#check(executionId, (delivered - killedAt) / 1000)), alertIds };
  }

  /** The last warnings the workers logged (a failure's context). */
  static recentWarnings(count = 5): string {
    return childWarnings.slice(-count).join("\n");
  }

  async close(): Promise<void> {
    await killAllWorkers();
  }
}
