/**
 * Built access graphs of the last few snapshot sets, newest use last. A graph is rebuilt only
 * when one of a customer's snapshots changes, since the key names every snapshot it was built
 * from. Concurrent requests for one key share one build.
 */
export class AccessGraphCache<T> {
  readonly #entries = new Map<string, Promise<T>>();

  constructor(readonly maxEntries = 4) {}

  get(key: string, build: () => Promise<T>): Promise<T> {
    let entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
    } else {
      entry = build();
      // A failed build is not kept: the next request tries again.
      entry.catch(() => this.#entries.delete(key));
      if (this.#entries.size >= this.maxEntries) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
    }
    this.#entries.set(key, entry);
    return entry;
  }
}
