import PgBoss from "pg-boss";
import { afterAll, expect, inject, it } from "vitest";
import { createApp } from "../src/app.ts";
import { monitorPartnerAccount, partnerAccountPath, partnerTrigger } from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

const h = await createHarness();

/**
 * A queue whose analysis queue was never created: pg-boss cannot write the job. The execution
 * row was written in the same transaction, so it must be gone too, or the account would stay
 * "queued" (and refuse every trigger with 409) forever.
 */
const withoutQueues = new PgBoss({
  connectionString: inject("databaseUrl"),
  schema: "pgboss_without_queues",
  max: 1,
  supervise: false,
  schedule: false,
});
await withoutQueues.start();
afterAll(() => withoutQueues.stop({ graceful: false }));
const broken = createApp({ ...h.deps, services: { ...h.deps.services, boss: withoutQueues } });

// pg-boss's `send` answers null (it does not throw) when the queue does not exist.
it("writes no execution when its job cannot be enqueued", async () => {
  const pc = await h.newPartnerCustomer(await h.newPartner());
  await monitorPartnerAccount(h, pc, "123456789012");
  const path = `${partnerAccountPath(pc, "123456789012")}/analysis`;
  const res = await broken.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${pc.key}`, "content-type": "application/json" },
    body: JSON.stringify(partnerTrigger(pc, "123456789012")),
  });
  expect(res.status).toBe(500);
  const list = await h.call("GET", `${partnerAccountPath(pc, "123456789012")}/executions`, {
    key: pc.key,
  });
  expect(list.json).toEqual([]);
  // The account is free: a trigger through a working queue is accepted.
  const retry = await h.call("POST", path, {
    key: pc.key,
    body: partnerTrigger(pc, "123456789012"),
  });
  expect(retry.status).toBe(202);
});
