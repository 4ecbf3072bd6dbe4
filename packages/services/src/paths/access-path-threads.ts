import { type ResourceLimits, Worker } from "node:worker_threads";
import {
  AppError,
  type ResourceAccessPathsRequest,
  type ResourceAccessPathsResponse,
} from "@sightline/domain";
import type { Logger } from "@sightline/logging";
import { threadEntry } from "../runtime/thread-entry.ts";
import { AccessPathGraphs, type SnapshotData } from "./access-path-graphs.ts";
import { type FromWorker, receiveError, sendError, type ToWorker } from "./access-path-protocol.ts";

/**
 * Where endpoint 12's access graphs live and its paths are enumerated. `snapshots` reads the
 * key's stored snapshots, called only when no graph of the key is held or being built.
 */
export interface AccessPaths {
  answer(
    key: string,
    request: ResourceAccessPathsRequest,
    snapshots: () => Promise<SnapshotData>,
  ): Promise<ResourceAccessPathsResponse>;
  /** Stops the threads: what is pending fails as unavailable. */
  close(): Promise<void>;
}

export interface AccessPathThreadOptions {
  /** Worker threads; a customer's graphs are always held by the same one. Default 1. */
  threads?: number;
  /** Graphs each thread keeps, the last used. Default 4. */
  maxGraphs?: number;
  /**
   * The threads' nice value (Linux, where it is a thread's own), 0 to keep the process's: a build
   * yields the cores to the API's requests. Default 10.
   */
  niceness?: number;
  /** Each thread's heap limits: a thread that exceeds them ends as if it had crashed. */
  resourceLimits?: ResourceLimits;
  logger?: Logger;
}

interface Pending {
  resolve(answer: ResourceAccessPathsResponse): void;
  reject(error: Error): void;
  snapshots(): Promise<SnapshotData>;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

const unavailable = (message: string) =>
  new AppError("UNAVAILABLE", message, { retryable: true, details: { retryAfterSeconds: 1 } });

/** The bytes of each snapshot in an ArrayBuffer of its own, so that they can be transferred. */
function transferable(data: SnapshotData): { data: Uint8Array[]; transfer: ArrayBuffer[] } {
  const owned = data.map((bytes) =>
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes
      : new Uint8Array(bytes),
  );
  const transfer = new Set<ArrayBuffer>();
  for (const bytes of owned) transfer.add(bytes.buffer as ArrayBuffer);
  return { data: owned, transfer: [...transfer] };
}

/** The thread that holds a key's graphs: the key starts with the customer. */
function threadOf(key: string, threads: number): number {
  const customer = key.split("|", 1)[0] ?? "";
  let hash = 0;
  for (let i = 0; i < customer.length; i++) hash = (hash * 31 + customer.charCodeAt(i)) | 0;
  return Math.abs(hash) % threads;
}

/**
 * Endpoint 12's graphs in worker threads, off the API's event loop: each thread builds and holds
 * its customers' graphs and answers with the paths' JSON alone. A thread starts at its first
 * request; one that crashes (or exceeds its heap limits) fails its pending requests as
 * unavailable (retryable) and is replaced at the next request.
 */
export class AccessPathThreads implements AccessPaths {
  readonly #threads: (Thread | undefined)[];
  readonly #options: AccessPathThreadOptions;
  #nextId = 1;
  #closed = false;

  constructor(options: AccessPathThreadOptions = {}) {
    this.#options = options;
    this.#threads = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => undefined);
  }

  answer(
    key: string,
    request: ResourceAccessPathsRequest,
    snapshots: () => Promise<SnapshotData>,
  ): Promise<ResourceAccessPathsResponse> {
    if (this.#closed) return Promise.reject(unavailable("The API is shutting down: ask again"));
    const thread = this.#thread(threadOf(key, this.#threads.length));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject, snapshots });
      // A thread with nothing pending does not keep the process alive.
      if (thread.pending.size === 1) thread.worker.ref();
      thread.worker.postMessage({ type: "paths", id, key, request } satisfies ToWorker);
    });
  }

  /** Thread IDs of the running threads (for tests and logs). */
  get threadIds(): number[] {
    return this.#threads.flatMap((t) => (t ? [t.worker.threadId] : []));
  }

  async close(): Promise<void> {
    this.#closed = true;
    const running = this.#threads.flatMap((thread) => (thread ? [thread] : []));
    this.#threads.fill(undefined);
    for (const thread of running)
      this.#fail(thread, unavailable("The API is shutting down: ask again"));
    await Promise.all(running.map((thread) => thread.worker.terminate()));
  }

  #thread(index: number): Thread {
    const running = this.#threads[index];
    if (running) return running;
    const { entry, options } = threadEntry(import.meta.url, "access-path-worker");
    const worker = new Worker(entry, {
      ...options,
      workerData: {
        maxGraphs: this.#options.maxGraphs ?? 4,
        niceness: this.#options.niceness ?? 10,
      },
      ...(this.#options.resourceLimits ? { resourceLimits: this.#options.resourceLimits } : {}),
    });
    worker.unref();
    const thread: Thread = { worker, pending: new Map() };
    this.#threads[index] = thread;
    let crash: Error | undefined;
    worker.on("message", (message: FromWorker) => this.#receive(thread, message));
    worker.on("error", (error) => {
      crash = error;
    });
    worker.on("exit", (code) => {
      if (this.#threads[index] !== thread) return;
      this.#threads[index] = undefined;
      const why = crash?.message ?? `exit code ${code}`;
      this.#options.logger?.error(
        { err: crash, threadId: worker.threadId, pending: thread.pending.size },
        "access-path thread ended: its pending requests fail, the next request starts another",
      );
      this.#fail(thread, unavailable(`The access-path thread ended (${why}): ask again`));
    });
    return thread;
  }

  #receive(thread: Thread, message: FromWorker) {
    const pending = thread.pending.get(message.id);
    if (!pending) return;
    if (message.type === "snapshots") {
      pending
        .snapshots()
        .then((data) => {
          const sent = transferable(data);
          thread.worker.postMessage(
            { type: "snapshots", id: message.id, data: sent.data } satisfies ToWorker,
            sent.transfer,
          );
        })
        // Not read, or not sent: the thread's build fails with the reason, and so do the
        // requests that wait for it.
        .catch((error: unknown) =>
          thread.worker.postMessage({
            type: "snapshots",
            id: message.id,
            error: sendError(error),
          } satisfies ToWorker),
        );
      return;
    }
    thread.pending.delete(message.id);
    if (thread.pending.size === 0) thread.worker.unref();
    if (message.type === "answer") pending.resolve(message.answer as ResourceAccessPathsResponse);
    else pending.reject(receiveError(message.error));
  }

  #fail(thread: Thread, error: Error) {
    const pending = [...thread.pending.values()];
    thread.pending.clear();
    for (const p of pending) p.reject(error);
  }
}

/** The same graphs on the calling thread: the baseline the bench compares the threads with. */
export function inThreadAccessPaths(maxGraphs = 4): AccessPaths {
  const graphs = new AccessPathGraphs(maxGraphs);
  return {
    answer: (key, request, snapshots) => graphs.answer(key, request, snapshots),
    close: async () => {},
  };
}
