import type PgBoss from "pg-boss";
import type { LeaseKeeper } from "../queue/lease-keeper.ts";

/** After the drain, how long handing the jobs back and pg-boss's own stop may take. */
const STOP_MS = 30_000;

/**
 * Stops taking jobs and lets the running ones finish for up to `drainMs`; those still running
 * then are handed back to run again at once (`LeaseKeeper.handBack`), not failed as pg-boss's
 * stop would fail them (a retry counted, after its back-off). Then the queue stops.
 */
export async function drainJobQueue(
  boss: PgBoss,
  leases: LeaseKeeper | undefined,
  drainMs: number,
): Promise<void> {
  const stopped = boss.stop({ graceful: true, timeout: drainMs + STOP_MS, wait: true });
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<"out of time">((resolve) => {
    timer = setTimeout(() => resolve("out of time"), drainMs);
  });
  const first = await Promise.race([stopped.then(() => "stopped" as const), outOfTime]);
  clearTimeout(timer);
  if (first === "out of time") await leases?.handBack();
  await stopped;
}
