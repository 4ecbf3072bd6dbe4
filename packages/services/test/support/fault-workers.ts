/**
 * Worker processes for the fault suite: started ahead (standing by, loaded and connected) so
 * that one takes over the moment a test kills another, as a second machine would.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AlertSettings } from "../../src/alerts/alert-settings.ts";
import type { WorkerSettings } from "../../src/worker/start-worker.ts";

export interface WorkerChild {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Starts taking jobs (a standby worker). */
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface WorkerOptions {
  databaseUrl: string;
  schema: string;
  settings: WorkerSettings;
  /** Alerts' settings of the child (hosts it may reach, CAs it trusts). */
  alerts?: Pick<AlertSettings, "allowedHosts" | "caCertificates" | "retry">;
  /** The master key of the test's sealed secrets (hex). */
  masterKeyHex?: string;
  /** Its report files never finish writing: an attempt held in `writing`. */
  holdWrites?: boolean;
}

/** The warnings the worker processes logged (forwarded over IPC), for a failing test to show. */
export const childWarnings: string[] = [];
const living = new Set<ChildProcess>();

function until(child: ChildProcess, wanted: string, seconds: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker ${child.pid}: not '${wanted}' within ${seconds} s`)),
      seconds * 1000,
    );
    const onExit = () => {
      clearTimeout(timer);
      reject(new Error(`worker ${child.pid} exited before '${wanted}'`));
    };
    child.once("exit", onExit);
    child.on("message", function listen(message) {
      if (message !== wanted) return;
      clearTimeout(timer);
      child.off("message", listen);
      child.off("exit", onExit);
      resolve();
    });
  });
}

/** A worker process standing by: loaded and connected, taking no job until `start()`. */
export async function standbyWorker(options: WorkerOptions): Promise<WorkerChild> {
  const child = fork(fileURLToPath(new URL("./worker-process.ts", import.meta.url)), {
    execArgv: ["--conditions=@sightline/source", "--import", "tsx"],
    env: {
      ...process.env,
      SIGHTLINE_TEST_WORKER: JSON.stringify({ ...options, standby: true }),
    },
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  living.add(child);
  child.once("exit", () => living.delete(child));
  child.on("message", (message: { log?: string }) => {
    if (message?.log) childWarnings.push(message.log);
  });
  await until(child, "standing-by", 120);
  return {
    process: child,
    pid: child.pid as number,
    async start() {
      const ready = until(child, "ready", 60);
      child.send("start");
      await ready;
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGCONT");
      child.kill(signal);
      await exited;
    },
  };
}

/** Kills every worker process still alive (a test's clean-up). */
export async function killAllWorkers(): Promise<void> {
  await Promise.all(
    [...living].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGCONT");
          child.kill("SIGKILL");
        }),
    ),
  );
}
