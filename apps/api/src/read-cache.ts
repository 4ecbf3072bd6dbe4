import { type SerializedJson, serializeJson } from "./serialized-json.ts";

/**
 * Caches serialised read responses per partner. Entries of a partner die when the change feed
 * (database triggers → LISTEN) reports a committed write to it, or when this process writes.
 * Generations (one per partner, one global) stop a read that raced a write from storing the
 * old answer. While the feed is down nothing is cached, and a reconnect drops everything;
 * `ttlMs` bounds whatever else could go wrong.
 */
export class ReadCache {
  readonly #entries = new Map<string, { stamp: string; json: string; expires: number }>();
  readonly #generations = new Map<string, number>();
  #epoch = 0;
  #enabled = false;

  constructor(
    readonly ttlMs = 60_000,
    readonly maxEntries = 10_000,
    readonly now: () => number = Date.now,
  ) {}

  #stamp(partnerId: string): string {
    return `${this.#epoch}:${this.#generations.get(partnerId) ?? 0}`;
  }

  /** The cached JSON for `key` under `partnerId`, or `load()`'s answer serialised (and cached). */
  async read<T>(
    partnerId: string,
    key: string,
    load: () => Promise<T | undefined>,
  ): Promise<SerializedJson<T> | undefined> {
    const stamp = this.#stamp(partnerId);
    const hit = this.#entries.get(key);
    if (hit && hit.stamp === stamp && hit.expires > this.now())
      return hit.json as SerializedJson<T>;
    const value = await load();
    if (value === undefined) return undefined;
    const json = serializeJson(value);
    if (this.#enabled && this.#stamp(partnerId) === stamp) {
      if (this.#entries.size >= this.maxEntries) this.#entries.clear();
      this.#entries.set(key, { stamp, json, expires: this.now() + this.ttlMs });
    }
    return json;
  }

  /** Something of this partner changed: its entries are stale from now on. */
  invalidate(partnerId: string): void {
    this.#generations.set(partnerId, (this.#generations.get(partnerId) ?? 0) + 1);
  }

  /** The change feed is (re)connected: start caching afresh. */
  resume(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#enabled = true;
  }

  /** The change feed is down: stop caching and forget what was cached. */
  suspend(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#enabled = false;
  }
}
