import type { ApiClient } from "@sightline/domain";

/**
 * Remembers recently authenticated keys (by hash) for a few seconds, which halves the database
 * round trips of a typical request. A revocation is immediate in the process that revokes and
 * takes effect elsewhere within `ttlMs`. Keys found unknown are remembered for `ttlMs` too, so
 * that guessing keys costs no database look-ups (keys are random: none is created after it was
 * guessed). A look-up that raced a revocation does not store its answer (`generation`).
 */
export class ApiClientCache {
  readonly #entries = new Map<string, { client: ApiClient; expires: number }>();
  readonly #unknown = new Map<string, { expires: number; reason: string }>();
  readonly #touched = new Map<string, number>();
  #generation = 0;

  constructor(
    readonly ttlMs = 10_000,
    readonly maxEntries = 10_000,
    readonly now: () => number = Date.now,
  ) {}

  get(keyHash: string): ApiClient | undefined {
    const entry = this.#entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.#entries.delete(keyHash);
      return undefined;
    }
    return entry.client;
  }

  /** Changes at every revocation; read it before a look-up and pass it to `set`. */
  get generation(): number {
    return this.#generation;
  }

  /** Remembers a key, unless a revocation came since `generation` was read (its look-up began). */
  set(keyHash: string, client: ApiClient, generation = this.#generation): void {
    if (this.ttlMs <= 0 || generation !== this.#generation) return;
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(keyHash, { client, expires: this.now() + this.ttlMs });
  }

  /** A key hash the database does not know, or knows as revoked (`reason`). */
  setUnknown(keyHash: string, reason = "Invalid API key"): void {
    if (this.ttlMs <= 0) return;
    if (this.#unknown.size >= this.maxEntries) {
      const oldest = this.#unknown.keys().next().value;
      if (oldest !== undefined) this.#unknown.delete(oldest);
    }
    this.#unknown.set(keyHash, { expires: this.now() + this.ttlMs, reason });
  }

  isUnknown(keyHash: string): boolean {
    return this.unknownReason(keyHash) !== undefined;
  }

  /** Why a remembered key hash is refused; undefined when it is not remembered as refused. */
  unknownReason(keyHash: string): string | undefined {
    const entry = this.#unknown.get(keyHash);
    if (entry === undefined) return undefined;
    if (entry.expires > this.now()) return entry.reason;
    this.#unknown.delete(keyHash);
    return undefined;
  }

  /**
   * Whether a key's last use should be written now: once a minute per key and process, so that
   * "last used" costs no write per request.
   */
  shouldTouch(keyId: string, intervalMs = 60_000): boolean {
    const now = this.now();
    const last = this.#touched.get(keyId);
    if (last !== undefined && now - last < intervalMs) return false;
    if (this.#touched.size >= this.maxEntries) this.#touched.clear();
    this.#touched.set(keyId, now);
    return true;
  }

  /** Forgets every entry of a key ID (after a revocation, or a change of its scopes or expiry). */
  evictKey(keyId: string): void {
    this.#generation++;
    for (const [hash, entry] of this.#entries) {
      if (entry.client.kind !== "operator" && entry.client.keyId === keyId)
        this.#entries.delete(hash);
    }
  }

  /** Forgets every key (the change feed reconnected: revocations may have been missed). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
