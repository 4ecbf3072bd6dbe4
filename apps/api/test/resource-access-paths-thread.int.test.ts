import { ResourceAccessPathsResponse } from "@sightline/domain";
import type { AccessPaths } from "@sightline/services";
import { describe, expect, it } from "vitest";
import { ORGANISATIONS } from "../../../packages/engine/bench/generate-organisation.ts";
import { createHarness } from "./harness.ts";
import { storeOrganisation } from "./organisation-snapshots.ts";

const h = await createHarness();

/** Resolves at the next turn of the event loop (after timers and I/O callbacks that are due). */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("resource access paths off the event loop", () => {
  it("answers other requests while a 10,000-role graph is built", async () => {
    const pc = await h.newPartnerCustomer(await h.newPartner());
    const { accountIds, roleArn } = await storeOrganisation(
      h.deps.db,
      pc.customerId,
      ORGANISATIONS.org10k,
    );
    // Told when the snapshots have been read and are handed to the thread that builds the graph.
    const threads = h.deps.accessPaths;
    let handed!: () => void;
    const building = new Promise<void>((resolve) => {
      handed = resolve;
    });
    const watched: AccessPaths = {
      answer: (key, request, snapshots) =>
        threads.answer(key, request, async () => {
          const data = await snapshots();
          handed();
          return data;
        }),
      close: () => threads.close(),
    };
    h.deps.accessPaths = watched;
    try {
      const events: string[] = [];
      let answered = false;
      const paths = h
        .call(
          "POST",
          `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/${accountIds[0]}/resource-access-paths`,
          {
            key: pc.key,
            body: {
              resourceIds: [roleArn],
              principalAccessCapabilities: ["use-resource"],
              service: "STS",
              accessCapabilityOperator: "OR",
              maxAccessPathNodes: 3,
            },
          },
        )
        .finally(() => {
          answered = true;
          events.push("paths");
        });
      await building;
      const handedAt = performance.now();
      // While the graph is built: partner reads, one after another (each at a turn of its own,
      // as requests from the network arrive), and the longest the event loop went without a turn.
      let reads = 0;
      const reading = (async () => {
        while (!answered) {
          await nextTurn();
          const read = await h.call("GET", `/partner/${pc.partnerId}`, { key: pc.key });
          expect(read.status).toBe(200);
          if (!answered) events.push("read");
          reads++;
        }
      })();
      let longestStall = 0;
      for (let last = performance.now(); !answered; ) {
        await nextTurn();
        const now = performance.now();
        longestStall = Math.max(longestStall, now - last);
        last = now;
      }
      const res = await paths;
      const buildMs = performance.now() - handedAt;
      await reading;
      expect(res.status).toBe(200);
      const answer = ResourceAccessPathsResponse.parse(res.json).resourceAccessPaths[roleArn];
      expect(answer?.resourceType).toBe("IAMRole");
      // Partner reads were answered before the paths were: the build did not hold the loop.
      expect(events[0]).toBe("read");
      expect(reads).toBeGreaterThan(0);
      // Not a time limit but a share of the build, whatever the machine's load: the loop never
      // stalled for half of it (on the request's own thread, the build is one stall).
      expect(longestStall).toBeLessThan(buildMs / 2);
    } finally {
      h.deps.accessPaths = threads;
    }
  });
});
