/**
 * The lease heartbeat's thread: renews a worker's leases on an event loop of its own, so that an
 * analysis that holds the main thread for many seconds (a large account's model is built in one
 * synchronous piece) does not lose its lease. A process that dies takes the thread with it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createDb, renewJobLeases } from "@sightline/db";
import type { FromHeartbeat, HeartbeatSettings, ToHeartbeat } from "./lease-heartbeat-protocol.ts";

const settings = workerData as HeartbeatSettings;
const database = createDb(settings.databaseUrl, { maxConnections: 1 });
const running = new Set<string>();
let lastRenewal = Date.now();
let renewing = false;

const post = (message: FromHeartbeat) => parentPort?.postMessage(message);

async function renew(): Promise<void> {
  if (renewing) return;
  renewing = true;
  const ids = [...running];
  try {
    const held = await renewJobLeases(database.db, {
      owner: settings.owner,
      jobIds: ids,
      lostAfterSeconds: settings.lostAfterSeconds,
    });
    lastRenewal = Date.now();
    post({ renewed: ids, held: [...held] });
  } catch {
    // The database is away: past the lease's life, another worker may have taken the jobs.
    if (Date.now() - lastRenewal >= settings.lostAfterSeconds * 1000)
      post({ renewed: ids, held: [] });
  } finally {
    renewing = false;
  }
}

const timer = setInterval(() => void renew(), settings.renewSeconds * 1000);
parentPort?.on("message", (message: ToHeartbeat) => {
  if ("add" in message) running.add(message.add);
  else if ("remove" in message) running.delete(message.remove);
  else {
    clearInterval(timer);
    void database.close().finally(() => parentPort?.close());
  }
});
