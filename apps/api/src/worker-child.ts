import { type ChildProcess, spawn } from "node:child_process";
import type { Logger } from "@sightline/logging";

/** The worker child process of `SIGHTLINE_ROLE=all`, as the start command holds it. */
export interface WorkerChild {
  /** The running child's process ID (undefined between a crash and its restart). */
  readonly pid: number | undefined;
  /** Asks the child to drain and stop (SIGTERM); kills it after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * `SIGHTLINE_ROLE=all` runs the worker as a child process of the start command, so that an
 * analysis (seconds to minutes of CPU) never holds the API's event loop. The child is the same
 * program (`entry`, with this process's Node options) with `SIGHTLINE_ROLE=worker` on the
 * parent's database, the embedded one included. It stops when the parent stops, or dies (its IPC
 * channel closes); a child that dies is started again, after 1 s and up to 30 s between tries.
 */
export function startWorkerChild(options: {
  entry: string;
  databaseUrl: string;
  logger: Logger;
}): WorkerChild {
  let child: ChildProcess | undefined;
  let stopping = false;
  let failures = 0;
  const start = () => {
    const startedAt = Date.now();
    const running = spawn(process.execPath, [...process.execArgv, options.entry], {
      env: { ...process.env, SIGHTLINE_ROLE: "worker", DATABASE_URL: options.databaseUrl },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child = running;
    options.logger.info({ workerPid: running.pid }, "worker process started");
    running.once("exit", (code, signal) => {
      if (child === running) child = undefined;
      if (stopping) return;
      failures = Date.now() - startedAt > 60_000 ? 1 : failures + 1;
      const retryInMs = Math.min(30_000, 1000 * 2 ** (failures - 1));
      // Exit code 0 is a stop it was asked for (Ctrl-C reaches the whole process group first).
      if (code === 0) options.logger.info({ retryInMs }, "the worker process stopped");
      else
        options.logger.error(
          { code, signal, retryInMs },
          "the worker process ended: another starts (analyses it ran are taken again when their jobs expire)",
        );
      setTimeout(() => {
        if (!stopping) start();
      }, retryInMs).unref();
    });
  };
  start();
  return {
    get pid() {
      return child?.pid;
    },
    async stop(timeoutMs) {
      stopping = true;
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      const kill = setTimeout(() => running.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(kill);
    },
  };
}
