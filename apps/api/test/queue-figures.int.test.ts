import { randomBytes } from "node:crypto";
import { acquireJobLease, reapLostLeases } from "@sightline/db";
import { QueueFigures } from "@sightline/domain";
import { ANALYSIS_QUEUE } from "@sightline/services";
import { describe, expect, it } from "vitest";
import {
  customerAccountPath,
  monitorCustomerAccount,
  monitorPartnerAccount,
  partnerAccountPath,
  partnerTrigger,
} from "./analysis-fixtures.ts";
import { createHarness } from "./harness.ts";

// A queue of this file's own: its figures are this file's jobs only.
const schema = `pgboss_figures_${randomBytes(4).toString("hex")}`;
const h = await createHarness({ queueSchema: schema });

async function figures() {
  const read = await h.admin("GET", "/admin/queues");
  expect(read.status).toBe(200);
  const parsed = QueueFigures.parse(read.json);
  const lane = (name: string) => {
    const found = parsed.lanes.find((l) => l.lane === name);
    if (!found) throw new Error(`no lane ${name}`);
    return found;
  };
  return { parsed, lane };
}

describe("GET /admin/queues: the job queue as the operator watches it", () => {
  it("counts each lane's waiting and running jobs, per tenant the longest wait first, and the lost leases", async () => {
    // Partner A: three customers' accounts queued; direct customer B: one, queued after.
    const partner = await h.newPartner();
    const accounts = ["111111111111", "222222222222", "333333333333"];
    for (const accountId of accounts) {
      const pc = await h.newPartnerCustomer(partner);
      await monitorPartnerAccount(h, pc, accountId);
      const trigger = await h.call("POST", `${partnerAccountPath(pc, accountId)}/analysis`, {
        key: pc.key,
        body: partnerTrigger(pc, accountId),
      });
      expect(trigger.status).toBe(202);
    }
    const direct = await h.newDirectCustomer("Team");
    await monitorCustomerAccount(h, direct, "444444444444");
    const trigger = await h.call(
      "POST",
      `${customerAccountPath(direct, "444444444444")}/analysis`,
      { key: direct.key, body: { customerId: direct.customerId, accountId: "444444444444" } },
    );
    expect(trigger.status).toBe(202);

    const before = await figures();
    const analysis = before.lane("analysis");
    expect(analysis).toMatchObject({ queue: ANALYSIS_QUEUE, waiting: 4, running: 0 });
    expect(analysis.tenants.map((t) => [t.tenant, t.waiting, t.running])).toEqual([
      [partner.partnerId, 3, 0],
      [direct.customerId, 1, 0],
    ]);
    const [a, b] = analysis.tenants;
    expect(a?.oldestWaitingSeconds).toBeGreaterThanOrEqual(b?.oldestWaitingSeconds ?? 0);
    expect(analysis.oldestWaitingSeconds).toBe(a?.oldestWaitingSeconds);
    expect(before.lane("event")).toMatchObject({ waiting: 0, running: 0, tenants: [] });
    expect(before.lane("alert")).toMatchObject({
      waiting: 0,
      running: 0,
      oldestWaitingSeconds: null,
    });
    const lostBefore = before.parsed.leases.lost.find((l) => l.queue === ANALYSIS_QUEUE)?.lost ?? 0;

    // A worker takes A's first job, then dies: its lease lapses and any worker's reaper takes it back.
    const [job] = await h.boss.fetch<{ executionId: string }>(ANALYSIS_QUEUE);
    if (!job) throw new Error("no job to take");
    await acquireJobLease(h.deps.db, {
      jobId: job.id,
      queue: ANALYSIS_QUEUE,
      queueSchema: schema,
      owner: "dead-worker",
      executionId: job.data.executionId,
      lostAfterSeconds: 0,
    });
    const taken = (await figures()).lane("analysis");
    expect(taken).toMatchObject({ waiting: 3, running: 1 });
    expect(taken.tenants.find((t) => t.tenant === partner.partnerId)).toMatchObject({
      waiting: 2,
      running: 1,
    });
    expect((await figures()).parsed.leases.held).toBeGreaterThanOrEqual(1);

    const reaped = await reapLostLeases(h.deps.db, { queueSchema: schema, maxLosses: 5 });
    expect(reaped.map((r) => r.lostJobId)).toEqual([job.id]);
    const after = await figures();
    expect(after.lane("analysis")).toMatchObject({ waiting: 4, running: 0 });
    const lost = after.parsed.leases.lost.find((l) => l.queue === ANALYSIS_QUEUE);
    expect(lost?.lost).toBeGreaterThanOrEqual(lostBefore + 1);
    expect(Date.now() - Date.parse(lost?.lastLostAt ?? "")).toBeLessThan(60_000);
  });

  it("answers the operator only, and /readyz names no tenant", async () => {
    const partner = await h.newPartner();
    const refused = await h.call("GET", "/admin/queues", { key: partner.key });
    expect(refused.status).toBe(403);
    const ready = await h.call("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: "ok" });
  });
});
