import { AppError } from "@sightline/domain";
import type { ApiConfig } from "./config.ts";

/** What one bucket said about a request: whether it may go on, and the RateLimit-* figures. */
export interface RateDecision {
  allowed: boolean;
  /** The bucket's size (RateLimit-Limit). */
  limit: number;
  /** Whole requests left now (RateLimit-Remaining). */
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** When refused: seconds until one request may go (Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Token buckets by name (an API key's hash, a client address): each holds up to `burst`
 * requests and refills at `perSecond`. Memory is bounded: past `maxEntries` names, the ones
 * used longest ago are forgotten (a forgotten bucket starts full, which only errs toward
 * letting a request through).
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    readonly maxEntries = 50_000,
    readonly now: () => number = performance.now.bind(performance),
  ) {}

  take(name: string): RateDecision {
    const now = this.now();
    const bucket = this.#buckets.get(name);
    let tokens = this.burst;
    if (bucket) {
      tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
      this.#buckets.delete(name); // re-inserted below: the map stays in order of last use
    } else if (this.#buckets.size >= this.maxEntries) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    this.#buckets.set(name, { tokens, at: now });
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((this.burst - tokens) / this.perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.perSecond)),
    };
  }
}

/** The per-client and per-key limits of one API process; either may be off. */
export interface RateLimits {
  perClient?: TokenBuckets;
  perKey?: TokenBuckets;
  /** Per monitored account's event source (`POST /events/aws`). */
  perEventSource?: TokenBuckets;
}

/** The variables `rateLimitsOf` reads. */
export type RateLimitConfig = Pick<
  ApiConfig,
  | "SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND"
  | "SIGHTLINE_RATE_LIMIT_KEY_BURST"
  | "SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND"
  | "SIGHTLINE_RATE_LIMIT_CLIENT_BURST"
  | "SIGHTLINE_RATE_LIMIT_EVENTS_PER_SECOND"
  | "SIGHTLINE_RATE_LIMIT_EVENTS_BURST"
  | "SIGHTLINE_API_PROCESSES"
>;

/**
 * The limits of one of `SIGHTLINE_API_PROCESSES` API processes. The buckets are per process, so
 * each process allows 1/N of the configured rate and of the burst (rounded down): N processes
 * together allow at most the configured figures. A rate of 0 turns its limit off.
 */
export function rateLimitsOf(config: RateLimitConfig, now?: () => number): RateLimits {
  const processes = config.SIGHTLINE_API_PROCESSES;
  const share = (perSecond: number, burst: number) =>
    new TokenBuckets(perSecond / processes, Math.floor(burst / processes), undefined, now);
  return {
    ...(config.SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND > 0 && {
      perKey: share(
        config.SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND,
        config.SIGHTLINE_RATE_LIMIT_KEY_BURST,
      ),
    }),
    ...(config.SIGHTLINE_RATE_LIMIT_EVENTS_PER_SECOND > 0 && {
      perEventSource: share(
        config.SIGHTLINE_RATE_LIMIT_EVENTS_PER_SECOND,
        config.SIGHTLINE_RATE_LIMIT_EVENTS_BURST,
      ),
    }),
    ...(config.SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND > 0 && {
      perClient: share(
        config.SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND,
        config.SIGHTLINE_RATE_LIMIT_CLIENT_BURST,
      ),
    }),
  };
}

/**
 * Applies a bucket's decision to a request: RateLimit-* headers on the answer, or a 429 whose
 * message starts with `tooMany` ("Too many requests with this API key").
 */
export function enforceRateLimit(
  c: { header(name: string, value: string): void },
  decision: RateDecision,
  tooMany: string,
): void {
  // Set on the answer, a 429 included (the error handler answers through the same context).
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) c.header(name, value);
  if (!decision.allowed)
    throw new AppError("RATE_LIMITED", `${tooMany}: retry in ${decision.retryAfterSeconds} s`, {
      details: { retryAfterSeconds: decision.retryAfterSeconds },
    });
}

/** RateLimit-* headers (IETF draft) for a decision. */
function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(decision.resetSeconds),
  };
}
