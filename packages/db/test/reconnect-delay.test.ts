import { describe, expect, it } from "vitest";
import { reconnectDelaySeconds } from "../src/client.ts";

// After a database outage the pool connects again within a second: postgres.js's own delay grew
// to 20 s, which the API's reads waited for (the fault suite's invariant 5, apps/api's
// faults-api-answers test).
describe("reconnectDelaySeconds", () => {
  it("grows from tens of milliseconds and never passes 1 s, however many failures", () => {
    for (let failures = 0; failures <= 60; failures++) {
      const delay = reconnectDelaySeconds(failures);
      const ceiling = Math.min(0.05 * 2 ** failures, 1);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
    expect(reconnectDelaySeconds(1)).toBeLessThanOrEqual(0.1);
  });
});
