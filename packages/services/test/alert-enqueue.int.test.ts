import { listAlertDeliveries } from "@sightline/db";
import { describe, expect, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { alertIdOf, enqueueAlerts } from "../src/alerts/enqueue-alerts.ts";
import { ALERT_QUEUE, LOST_ALERT_QUEUE } from "../src/queue/alert-queue.ts";
import { lostAlertHandler } from "../src/worker/alert-job.ts";
import { accessChange, fakeDns, startAlerts } from "./support/alerts.ts";

const { ctx, ownerWith } = await startAlerts({
  worker: false,
  alerts: { resolve: fakeDns({ "hooks.example.com": ["93.184.215.14"] }) },
});
const hook = (name: string, alertOn?: string[]) => ({
  name,
  kind: "webhook",
  url: `https://hooks.example.com/${encodeURIComponent(name)}`,
  ...(alertOn ? { alertOn } : {}),
});

const analysis = (
  customerId: string,
  changes: ReturnType<typeof accessChange>[],
  partnerId?: string,
) => ({
  customerId,
  ...(partnerId ? { partnerId } : {}),
  provider: "aws",
  accountId: "123456789012",
  executionId: `daily-${customerId}-123456789012-2026-01-31_ZZ99`,
  analysisTime: new Date("2026-01-31T07:00:00Z"),
  changes,
});

describe("enqueueAlerts", () => {
  it("keeps per destination the changes its rule matches (default: admin, external, confidential)", async () => {
    const { customerId, stored } = await ownerWith("direct", [
      hook("defaults"),
      hook("credentials", ["credential-created"]),
      hook("confidential", ["confidential-access-gained"]),
      hook("nothing-matches", ["principal-removed"]),
    ]);
    const admin = accessChange({ kind: "iam-admin-gained", resourceArn: "", reach: undefined });
    const external = accessChange({ kind: "external-access-gained", confidential: true });
    const internal = accessChange({ kind: "access-gained", reach: "account" });
    const key = accessChange({ kind: "credential-created", resourceArn: "" });
    const result = await enqueueAlerts(ctx, analysis(customerId, [admin, external, internal, key]));
    expect(result).toEqual({ enqueued: 3 });
    const ids = async (index: number) =>
      (await listAlertDeliveries(ctx.db, stored[index]?.destinationId as string)).map(
        (d) => d.changeIds,
      );
    expect(await ids(0)).toEqual([[admin.changeId, external.changeId]]);
    expect(await ids(1)).toEqual([[key.changeId]]);
    // External and confidential at once: reported once, answers both rules.
    expect(await ids(2)).toEqual([[external.changeId]]);
    expect(await ids(3)).toEqual([]);
  });

  it("enqueues only what is new for a destination, and nothing when called again", async () => {
    const { customerId, stored } = await ownerWith("direct", [hook("team")]);
    const destinationId = stored[0]?.destinationId as string;
    const first = [accessChange(), accessChange()];
    const input = analysis(customerId, [...first, first[0] as (typeof first)[0]]);
    expect(await enqueueAlerts(ctx, input)).toEqual({ enqueued: 1 });
    expect(await enqueueAlerts(ctx, input)).toEqual({ enqueued: 0 });
    const later = accessChange();
    expect(await enqueueAlerts(ctx, analysis(customerId, [...first, later]))).toEqual({
      enqueued: 1,
    });
    const deliveries = await listAlertDeliveries(ctx.db, destinationId);
    expect(deliveries.map((d) => d.changeIds)).toEqual([
      first.map((c) => c.changeId),
      [later.changeId],
    ]);
    // The alert ID is the destination's, the execution's and its changes'.
    expect(deliveries[0]?.alertId).toBe(
      alertIdOf(
        destinationId,
        input.executionId,
        first.map((c) => c.changeId),
      ),
    );
    // One job per alert, carrying its ID only.
    const jobs = (await ctx.boss.fetch<{ alertId: string }>(ALERT_QUEUE, { batchSize: 100 })) ?? [];
    const mine = new Set(deliveries.map((d) => d.alertId));
    const ours = jobs.filter((job) => mine.has(job.data.alertId));
    expect(ours.map((job) => job.data).sort((a, b) => a.alertId.localeCompare(b.alertId))).toEqual(
      [...mine].sort().map((alertId) => ({ alertId })),
    );
  });

  it("is safe when two workers enqueue the same analysis at once", async () => {
    const { customerId, stored } = await ownerWith("direct", [hook("team")]);
    const input = analysis(customerId, [accessChange(), accessChange(), accessChange()]);
    const results = await Promise.all([1, 2, 3, 4].map(() => enqueueAlerts(ctx, input)));
    expect(results.reduce((sum, r) => sum + r.enqueued, 0)).toBe(1);
    expect(await listAlertDeliveries(ctx.db, stored[0]?.destinationId as string)).toHaveLength(1);
  });

  it("uses the partner's destinations for every customer of the partner, never a direct customer's", async () => {
    const partner = await ownerWith("partner", [hook("soc")]);
    const direct = await ownerWith("direct", [hook("own")]);
    const partnerId = partner.owner.kind === "partner" ? partner.owner.partnerId : "";
    // Change IDs are of two analyses of one account: each account's are its own.
    for (const n of ["000000000001", "000000000002"])
      expect(
        await enqueueAlerts(ctx, analysis(`${partnerId}-${n}`, [accessChange()], partnerId)),
      ).toEqual({ enqueued: 1 });
    const changes = [accessChange()];
    const soc = await listAlertDeliveries(ctx.db, partner.stored[0]?.destinationId as string);
    expect(soc.map((d) => d.customerId)).toEqual([
      `${partnerId}-000000000001`,
      `${partnerId}-000000000002`,
    ]);
    expect(await listAlertDeliveries(ctx.db, direct.stored[0]?.destinationId as string)).toEqual(
      [],
    );
    await expect(
      enqueueAlerts(ctx, analysis(direct.customerId, changes, partnerId)),
    ).rejects.toThrow("is not a customer of partner");
  });

  it("enqueues nothing for an owner without destinations, and deletes alerts with the destination", async () => {
    const { owner, customerId, stored } = await ownerWith("direct", [hook("team")]);
    await enqueueAlerts(ctx, analysis(customerId, [accessChange()]));
    await putAlertDestinations(ctx, owner, { destinations: [] });
    expect(await listAlertDeliveries(ctx.db, stored[0]?.destinationId as string)).toEqual([]);
    expect(await enqueueAlerts(ctx, analysis(customerId, [accessChange()]))).toEqual({
      enqueued: 0,
    });
  });

  it("ends an alert whose worker kept dying failed, saying so", async () => {
    const { customerId, stored } = await ownerWith("direct", [hook("team")]);
    await enqueueAlerts(ctx, analysis(customerId, [accessChange()]));
    const destinationId = stored[0]?.destinationId as string;
    const [queued] = await listAlertDeliveries(ctx.db, destinationId);
    const job = {
      id: "lost",
      name: LOST_ALERT_QUEUE,
      data: { alertId: queued?.alertId as string },
      expireInSeconds: 300,
    };
    await lostAlertHandler(ctx)([job]);
    await lostAlertHandler(ctx)([job]);
    const [lost] = await listAlertDeliveries(ctx.db, destinationId);
    expect(lost).toMatchObject({ status: "failed", attempts: 1 });
    expect(lost?.lastError).toContain("its worker was stopped");
  });
});
