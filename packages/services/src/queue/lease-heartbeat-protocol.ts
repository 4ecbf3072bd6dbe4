/** What the lease heartbeat's thread is started with. */
export interface HeartbeatSettings {
  databaseUrl: string;
  owner: string;
  renewSeconds: number;
  lostAfterSeconds: number;
}

/** To the thread: a job started or ended under this worker's lease, or stop. */
export type ToHeartbeat = { add: string } | { remove: string } | { stop: true };

/** From the thread: after each renewal, the jobs it tried and those whose lease is still held. */
export interface FromHeartbeat {
  renewed: string[];
  held: string[];
}
