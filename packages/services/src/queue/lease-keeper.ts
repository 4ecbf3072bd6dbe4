import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { Worker } from "node:worker_threads";
import {
  acquireJobLease,
  expireJobLeases,
  reapLostLeases,
  releaseJobLease,
  renewJobLeases,
} from "@sightline/db";
import type PgBoss from "pg-boss";
import type { ServiceContext } from "../context.ts";
import { threadEntry } from "../runtime/thread-entry.ts";
import { heldLease, type JobLease, LeaseLostError } from "./job-lease.ts";
import type { FromHeartbeat, HeartbeatSettings, ToHeartbeat } from "./lease-heartbeat-protocol.ts";

/** The job kinds that hold leases; each has its own longest run. */
export type LeasedKind = "analysis" | "event" | "alert";

export interface LeaseSettings {
  /** How often a worker renews its running jobs' leases (and reaps lost ones). */
  renewSeconds: number;
  /** A lease not renewed for this long is lost: its job runs again at once. */
  lostAfterSeconds: number;
  /** A job still renewing after this long is hung: it ends, failed, with `RUN_TIME_EXCEEDED`. */
  maxRunSeconds: Record<LeasedKind, number>;
  /** After this many lost leases in a row, the job fails for good (its dead-letter handler records why). */
  maxLosses: number;
}

export const DEFAULT_LEASE_SETTINGS: LeaseSettings = {
  renewSeconds: 5,
  lostAfterSeconds: 20,
  maxRunSeconds: { analysis: 30 * 60, event: 5 * 60, alert: 10 * 60 },
  maxLosses: 5,
};

interface Running {
  readonly lease: JobLease;
  readonly controller: AbortController;
  readonly kind: LeasedKind;
  readonly startedAt: number;
  /** Called once when the run is over its time, while the lease is still held. */
  readonly onOverrun: ((lease: JobLease) => Promise<void>) | undefined;
}

/** The data a leased job carries beside its own: how many of its attempts lost their lease. */
export interface LeasedJobData {
  leaseLosses?: number;
}

/**
 * The leases of one worker process: it takes a lease for each job it starts, renews them every
 * `renewSeconds`, and reaps the expired leases of dead workers. pg-boss 10 has no heartbeat
 * (12.x has, on Node 22): without this, a killed worker's job waited for its expiry.
 */
export class LeaseKeeper {
  readonly owner = `${hostname()}/${process.pid}/${randomBytes(3).toString("hex")}`;
  readonly #running = new Map<string, Running>();
  #timer: NodeJS.Timeout | undefined;
  #lastRenewal = Date.now();
  #ticking = false;

  /** Renews the leases on a thread of its own when the database's URL is known. */
  #heartbeat: Worker | undefined;

  constructor(
    private readonly ctx: Pick<ServiceContext, "db" | "boss" | "logger" | "databaseUrl">,
    private readonly settings: LeaseSettings,
    private readonly queueSchema: string,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.tick(), this.settings.renewSeconds * 1000);
    this.#timer.unref();
    if (this.ctx.databaseUrl && !this.#heartbeat)
      this.#heartbeat = this.#startHeartbeat(this.ctx.databaseUrl);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#heartbeat?.postMessage({ stop: true } satisfies ToHeartbeat);
    this.#heartbeat = undefined;
  }

  #startHeartbeat(databaseUrl: string): Worker {
    const { entry, options } = threadEntry(import.meta.url, "lease-heartbeat");
    const workerData: HeartbeatSettings = {
      databaseUrl,
      owner: this.owner,
      renewSeconds: this.settings.renewSeconds,
      lostAfterSeconds: this.settings.lostAfterSeconds,
    };
    const worker = new Worker(entry, { ...options, workerData });
    worker.unref();
    worker.on("message", (message: FromHeartbeat) =>
      this.#lostUnless(message.renewed, message.held),
    );
    worker.on("error", (error) => {
      // Without its thread, the main thread renews (as it does where no URL is known).
      this.ctx.logger.error({ err: error }, "job leases: the heartbeat thread failed");
      this.#heartbeat = undefined;
    });
    for (const id of this.#running.keys()) worker.postMessage({ add: id } satisfies ToHeartbeat);
    return worker;
  }

  /** The running jobs among `tried` whose lease is not among `held` were taken back. */
  #lostUnless(tried: readonly string[], held: readonly string[]): void {
    const still = new Set(held);
    for (const id of tried)
      if (!still.has(id)) this.#running.get(id)?.controller.abort(new LeaseLostError(id, "lost"));
  }

  /** Leases held now (for health). */
  get held(): number {
    return this.#running.size;
  }

  /**
   * A pg-boss handler that runs `handler` for each job under a lease. An attempt whose lease is
   * lost or whose time is over stops being awaited (it goes on only as far as its next fenced
   * write); pg-boss's `complete` of a reaped job then changes nothing.
   */
  handler<T extends object>(
    queue: string,
    kind: LeasedKind,
    handler: (job: PgBoss.JobWithMetadata<T>, lease: JobLease) => Promise<void>,
    options: {
      executionIdOf?: (data: T) => string | undefined;
      onOverrun?: (job: PgBoss.JobWithMetadata<T>, lease: JobLease) => Promise<void>;
    } = {},
  ): (jobs: PgBoss.JobWithMetadata<T>[]) => Promise<void> {
    return async (jobs) => {
      for (const job of jobs) {
        const controller = new AbortController();
        const lease = heldLease(job.id, this.owner, controller);
        const executionId = options.executionIdOf?.(job.data);
        await acquireJobLease(this.ctx.db, {
          jobId: job.id,
          queue,
          queueSchema: this.queueSchema,
          owner: this.owner,
          ...(executionId ? { executionId } : {}),
          losses: (job.data as LeasedJobData).leaseLosses ?? 0,
          lostAfterSeconds: this.settings.lostAfterSeconds,
        });
        const onOverrun = options.onOverrun;
        this.#heartbeat?.postMessage({ add: job.id } satisfies ToHeartbeat);
        this.#running.set(job.id, {
          lease,
          controller,
          kind,
          startedAt: Date.now(),
          onOverrun: onOverrun ? (l) => onOverrun(job, l) : undefined,
        });
        const ended = new Promise<never>((_, reject) => {
          controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
            once: true,
          });
        });
        ended.catch(() => {});
        const run = handler(job, lease);
        try {
          await Promise.race([run, ended]);
        } catch (error) {
          if (!(error instanceof LeaseLostError)) throw error;
          this.ctx.logger.warn({ jobId: job.id, queue, why: error.why }, error.message);
          // It goes on in the background only as far as its next check or fenced write.
          run.then(
            () => this.#abandoned(job.id, queue, "it ended"),
            (stopped: unknown) => this.#abandoned(job.id, queue, String(stopped)),
          );
        } finally {
          this.#running.delete(job.id);
          this.#heartbeat?.postMessage({ remove: job.id } satisfies ToHeartbeat);
          if (!controller.signal.aborted) controller.abort(new LeaseLostError(job.id, "lost"));
          // Left to lapse rather than deleted: see `releaseJobLease`.
          await releaseJobLease(
            this.ctx.db,
            job.id,
            this.owner,
            this.settings.lostAfterSeconds,
          ).catch(() => {});
        }
      }
    };
  }

  #abandoned(jobId: string, queue: string, how: string): void {
    this.ctx.logger.warn({ jobId, queue, how }, "an attempt that lost its lease has stopped");
  }

  /** One beat: renew, end overrun jobs, reap the dead's. Never two at once. */
  async tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      // The main thread renews too: the heartbeat's thread takes seconds to start on a loaded
      // machine, and a renewal from either keeps the lease.
      await this.#renew();
      await this.#endOverrun();
      await this.reap();
    } catch (error) {
      this.ctx.logger.warn({ err: error }, "job leases: a beat failed");
    } finally {
      this.#ticking = false;
    }
  }

  async #renew(): Promise<void> {
    const ids = [...this.#running.keys()];
    let held: Set<string>;
    try {
      held = await renewJobLeases(this.ctx.db, {
        owner: this.owner,
        jobIds: ids,
        lostAfterSeconds: this.settings.lostAfterSeconds,
      });
      this.#lastRenewal = Date.now();
    } catch (error) {
      // The database is away: past the lease's life, another worker may have taken the jobs.
      if (Date.now() - this.#lastRenewal < this.settings.lostAfterSeconds * 1000) throw error;
      held = new Set();
    }
    this.#lostUnless(ids, [...held]);
  }

  async #endOverrun(): Promise<void> {
    const now = Date.now();
    for (const [id, run] of this.#running) {
      if (now - run.startedAt < this.settings.maxRunSeconds[run.kind] * 1000) continue;
      this.#running.delete(id);
      try {
        await run.onOverrun?.(run.lease);
      } finally {
        run.controller.abort(new LeaseLostError(id, "overrun"));
      }
    }
  }

  /**
   * Hands every running job back at once, as a worker stops whose drain ran out: its lease is
   * let go and the job put back (to run again at once, without back-off and without counting a
   * retry, as a lost lease's), then its attempt is stopped. pg-boss's own stop would fail it
   * instead: a retry counted, run after its back-off. A job whose lease cannot be taken back
   * within `withinMs` (the database gone) is left running: its lease lapses with this process.
   */
  async handBack(withinMs = 10_000): Promise<number> {
    const running = new Map(this.#running);
    for (const id of running.keys()) {
      this.#running.delete(id);
      this.#heartbeat?.postMessage({ remove: id } satisfies ToHeartbeat);
    }
    let left = [...running.keys()];
    const deadline = Date.now() + withinMs;
    while (left.length > 0 && Date.now() < deadline) {
      try {
        await expireJobLeases(this.ctx.db, { owner: this.owner, jobIds: left });
        await this.reap();
        left = await expireJobLeases(this.ctx.db, { owner: this.owner, jobIds: left });
      } catch (error) {
        this.ctx.logger.warn({ err: error }, "job leases: a job could not be handed back yet");
      }
      if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const handedBack = [...running].filter(([id]) => !left.includes(id));
    // Only now is each attempt stopped: its job is no longer active, so pg-boss's `complete`
    // after it changes nothing.
    for (const [id, run] of handedBack) run.controller.abort(new LeaseLostError(id, "lost"));
    for (const id of left) {
      const run = running.get(id);
      if (run) this.#running.set(id, run);
    }
    this.ctx.logger.warn(
      { handedBack: handedBack.length, left: left.length },
      "stopping: running jobs handed back to run again at once",
    );
    return handedBack.length;
  }

  /** Puts the jobs of dead workers back (every worker does this, on its beat). */
  async reap(): Promise<number> {
    const reaped = await reapLostLeases(this.ctx.db, {
      queueSchema: this.queueSchema,
      maxLosses: this.settings.maxLosses,
    });
    for (const job of reaped) {
      this.ctx.logger.warn(
        {
          queue: job.queue,
          jobId: job.lostJobId,
          executionId: job.executionId,
          losses: job.losses,
        },
        "job lease lost: its worker stopped; the job runs again at once",
      );
      // Too many lost attempts: failed for good, through the queue's dead letter.
      if (job.losses >= this.settings.maxLosses)
        await this.ctx.boss.fail(job.queue, job.jobId, {
          message: `its worker stopped ${job.losses} times`,
        });
    }
    return reaped.length;
  }
}
