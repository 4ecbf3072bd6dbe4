import { parseConfig } from "@sightline/runtime";
import { describe, expect, it } from "vitest";
import { ApiConfig } from "../src/config.ts";
import { type RateLimits, rateLimitsOf } from "../src/rate-limits.ts";

// SIGHTLINE_API_PROCESSES=N: each process's buckets hold 1/N of the configured rate and burst,
// so that N processes together allow what is configured.

function limitsOf(env: Record<string, string>, now?: () => number): RateLimits {
  return rateLimitsOf(parseConfig(ApiConfig, env), now);
}

/** How many of `count` requests with one key (or from one address) a bucket allows. */
function allowed(buckets: RateLimits["perKey"], count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) if (buckets?.take("k").allowed) n++;
  return n;
}

describe("rate limits of several API processes", () => {
  it("gives each of two processes half the configured rates and bursts", () => {
    const limits = limitsOf({ SIGHTLINE_API_PROCESSES: "2" });
    expect(limits.perKey).toMatchObject({ perSecond: 10, burst: 50 });
    expect(limits.perClient).toMatchObject({ perSecond: 25, burst: 100 });
    // One process alone, with the defaults: the whole figures.
    expect(limitsOf({}).perKey).toMatchObject({ perSecond: 20, burst: 100 });
    expect(limitsOf({}).perClient).toMatchObject({ perSecond: 50, burst: 200 });
  });

  it("makes one process enforce half the rate: half the burst, then half the refill", () => {
    let now = 0;
    const { perKey } = limitsOf(
      {
        SIGHTLINE_API_PROCESSES: "2",
        SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND: "20",
        SIGHTLINE_RATE_LIMIT_KEY_BURST: "100",
      },
      () => now,
    );
    expect(allowed(perKey, 80)).toBe(50);
    const refused = perKey?.take("k");
    expect(refused).toMatchObject({ allowed: false, limit: 50, retryAfterSeconds: 1 });
    now = 1000; // one second refills 10 requests, not 20
    expect(allowed(perKey, 20)).toBe(10);
    now = 11_000; // ten seconds: 100 requests' worth, capped at the burst of 50
    expect(allowed(perKey, 80)).toBe(50);
  });

  it("lets two processes together allow the configured burst and rate, not twice them", () => {
    let now = 0;
    const env = {
      SIGHTLINE_API_PROCESSES: "2",
      SIGHTLINE_RATE_LIMIT_CLIENT_PER_SECOND: "40",
      SIGHTLINE_RATE_LIMIT_CLIENT_BURST: "60",
    };
    const processes = [limitsOf(env, () => now), limitsOf(env, () => now)];
    // A client whose requests a load balancer spreads over both processes.
    const spread = (count: number) => {
      let n = 0;
      for (let i = 0; i < count; i++)
        if (processes[i % 2]?.perClient?.take("10.0.0.1").allowed) n++;
      return n;
    };
    expect(spread(200)).toBe(60);
    for (let second = 1; second <= 5; second++) {
      now = second * 1000;
      expect(spread(200)).toBe(40);
    }
  });

  it("refuses a burst smaller than the number of processes, naming the variable", () => {
    expect(() =>
      parseConfig(ApiConfig, { SIGHTLINE_API_PROCESSES: "4", SIGHTLINE_RATE_LIMIT_KEY_BURST: "3" }),
    ).toThrow(
      "SIGHTLINE_RATE_LIMIT_KEY_BURST: must be at least SIGHTLINE_API_PROCESSES: each process allows burst / processes",
    );
    // A limit turned off has no burst to share.
    const off = { SIGHTLINE_API_PROCESSES: "4", SIGHTLINE_RATE_LIMIT_KEY_PER_SECOND: "0" };
    expect(limitsOf({ ...off, SIGHTLINE_RATE_LIMIT_KEY_BURST: "3" }).perKey).toBeUndefined();
    expect(() => parseConfig(ApiConfig, { SIGHTLINE_API_PROCESSES: "0" })).toThrow(
      "SIGHTLINE_API_PROCESSES",
    );
  });
});
