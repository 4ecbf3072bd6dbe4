/**
 * The access-path worker thread (started by `AccessPathThreads`): holds the access graphs of
 * customers' snapshots and enumerates the paths through them, off the API's event loop. It
 * asks the calling thread for a key's snapshots only when it holds no graph of that key, and
 * sends back only the JSON answer.
 */
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { AccessPathGraphs, type SnapshotData } from "./access-path-graphs.ts";
import { type FromWorker, receiveError, sendError, type ToWorker } from "./access-path-protocol.ts";

const port = parentPort;
if (!port) throw new Error("access-path-worker runs as a worker thread");
const settings = (workerData ?? {}) as { maxGraphs?: number; niceness?: number };
// On Linux a thread's nice value is its own (pid 0 is the calling thread): where cores are
// scarce, the build yields them to the API's thread, whose answers are short.
if (process.platform === "linux" && settings.niceness)
  try {
    setPriority(settings.niceness);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
const graphs = new AccessPathGraphs(settings.maxGraphs);
/** Requests waiting for the snapshots they asked for, by request ID. */
const waiting = new Map<number, { resolve(data: SnapshotData): void; reject(e: Error): void }>();
const send = (message: FromWorker) => port.postMessage(message);

port.on("message", (message: ToWorker) => {
  if (message.type === "snapshots") {
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.data) pending?.resolve(message.data);
    else
      pending?.reject(
        receiveError(message.error ?? { name: "Error", message: "no snapshots were sent" }),
      );
    return;
  }
  const { id, key, request } = message;
  const snapshots = () =>
    new Promise<SnapshotData>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      send({ type: "snapshots", id });
    });
  graphs.answer(key, request, snapshots).then(
    (answer) => send({ type: "answer", id, answer }),
    (error: unknown) => send({ type: "failed", id, error: sendError(error) }),
  );
});
