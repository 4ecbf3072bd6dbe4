import { appendAuditEvent, type Executor } from "@sightline/db";
import type { Context } from "hono";
import type { AppEnv } from "./context.ts";

/** At most this many refusals a minute are written into one tenant's trail (per process)… */
export const REFUSALS_PER_MINUTE = 30;
/** … and into all trails together: paths may name any number of tenants. */
export const ALL_REFUSALS_PER_MINUTE = 600;

/**
 * Writes a valid key's 403 on a tenant's path into that tenant's trail, a bounded number a
 * minute: a flood of refused requests cannot fill the table. The rest are only counted.
 */
export class RefusalRecorder {
  readonly #windows = new Map<string, { start: number; count: number }>();
  /** Refusals not written because their tenant's minute was full. */
  dropped = 0;

  constructor(readonly now: () => number = Date.now) {}

  async record(
    db: Executor,
    c: Context<AppEnv>,
    tenant: string,
    route: { method: string; path: string; operationId: string },
    reason: string,
  ): Promise<void> {
    const client = c.get("apiClient");
    if (client.kind === "operator" || !this.#admit(tenant)) return;
    await appendAuditEvent(db, {
      tenant,
      keyId: client.keyId,
      actorName: client.keyName ?? `key ${client.keyId}`,
      action: `${route.method.toUpperCase()} ${route.path}`,
      route: route.operationId,
      params: c.req.param() as Record<string, string>,
      status: 403,
      requestId: c.get("requestId") ?? null,
      changes: { refused: { old: null, new: reason } },
    });
  }

  #admit(tenant: string): boolean {
    return this.#take("*", ALL_REFUSALS_PER_MINUTE) && this.#take(tenant, REFUSALS_PER_MINUTE);
  }

  #take(name: string, perMinute: number): boolean {
    const now = this.now();
    let window = this.#windows.get(name);
    if (!window || now - window.start >= 60_000) {
      if (this.#windows.size >= 10_000) this.#windows.clear();
      window = { start: now, count: 0 };
      this.#windows.set(name, window);
    }
    if (window.count >= perMinute) {
      this.dropped++;
      return false;
    }
    window.count++;
    return true;
  }
}
