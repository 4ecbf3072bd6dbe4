import { getAlertDelivery, listAlertDeliveries } from "@sightline/db";
import { AlertPayload } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { getAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { enqueueAlerts } from "../src/alerts/enqueue-alerts.ts";
import { verifyAlertSignature } from "../src/alerts/webhook-signature.ts";
import {
  accessChange,
  expectNotLogged,
  fakeDns,
  startAlerts,
  startReceiver,
  waitFor,
} from "./support/alerts.ts";

const receiver = await startReceiver();
const allowReceiver = [{ host: "127.0.0.1", port: receiver.port }];
const dns = fakeDns({});
const { ctx, lines, ownerWith, settled } = await startAlerts({
  alerts: { allowedHosts: allowReceiver, caCertificates: [receiver.cert], resolve: dns },
});
const alerts = ctx.alerts as NonNullable<typeof ctx.alerts>;

const analysis = (customerId: string, changes = [accessChange()]) => ({
  customerId,
  provider: "aws",
  accountId: "123456789012",
  executionId: `ondemand-${customerId}-123456789012-2026-01-31_AB12`,
  analysisTime: new Date("2026-01-31T07:00:00Z"),
  changes,
});

const webhook = (url = receiver.url) => [{ name: "security team", kind: "webhook", url }];

describe("a webhook alert", () => {
  it("is signed with the secret shown once, and the receiver verifies it", async () => {
    const { customerId, stored } = await ownerWith("direct", webhook());
    const secret = stored[0]?.secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const before = receiver.received.length;
    const changes = [accessChange(), accessChange({ kind: "iam-admin-gained", resourceArn: "" })];
    expect(await enqueueAlerts(ctx, analysis(customerId, changes))).toEqual({ enqueued: 1 });
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery.status).toBe("delivered");

    const request = receiver.received[before];
    if (!request) throw new Error("the receiver got nothing");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["sightline-alert-id"]).toBe(delivery.alertId);
    expect(verifyAlertSignature(secret, request.headers, request.body)).toBe(true);
    expect(verifyAlertSignature("not-the-secret", request.headers, request.body)).toBe(false);
    const payload = AlertPayload.parse(JSON.parse(request.body));
    expect(payload).toEqual({
      alertId: delivery.alertId,
      customerId,
      accountId: "123456789012",
      provider: "aws",
      executionId: analysis(customerId).executionId,
      analysisTime: "2026-01-31T07:00:00.000Z",
      changes,
    });

    const { destinations } = await getAlertDestinations(ctx, { kind: "direct", customerId });
    expect(destinations[0]?.recentAttempts).toEqual([
      { alertId: delivery.alertId, at: expect.any(String), outcome: "delivered", status: 200 },
    ]);
    expect(JSON.stringify(destinations)).not.toContain(secret);
    // Neither the secret nor the signature reach the logs.
    expectNotLogged(lines, secret);
    expectNotLogged(lines, String(request.headers["sightline-signature"]));
    expect(lines.some((line) => line.includes(`"alertId":"${delivery.alertId}"`))).toBe(true);
  });

  it("is retried with back-off after a 503 and delivered, every attempt recorded", async () => {
    const { customerId, stored } = await ownerWith("partner", webhook());
    const destinationId = stored[0]?.destinationId as string;
    receiver.statuses.push(503);
    const before = receiver.received.length;
    await enqueueAlerts(ctx, {
      ...analysis(customerId),
      partnerId: customerId.split("-")[0] as string,
    });
    const delivery = await settled(destinationId);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 2 });
    expect(receiver.received.length - before).toBe(2);
    const [first, second] = receiver.received.slice(before);
    // The same alert, signed again at its own time.
    expect(second?.headers["sightline-alert-id"]).toBe(first?.headers["sightline-alert-id"]);
    expect(second?.body).toBe(first?.body);
    const owner = { kind: "partner" as const, partnerId: customerId.split("-")[0] as string };
    const { destinations } = await getAlertDestinations(ctx, owner);
    expect(destinations[0]?.recentAttempts).toEqual([
      expect.objectContaining({ outcome: "delivered", status: 200 }),
      expect.objectContaining({
        outcome: "retrying",
        status: 503,
        error: "the receiver answered 503",
      }),
    ]);
  });

  it("fails for good on a 4xx other than 429, after one attempt", async () => {
    const { customerId, stored } = await ownerWith("direct", webhook());
    receiver.statuses.push(410);
    await enqueueAlerts(ctx, analysis(customerId));
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "the receiver answered 410",
    });
  });

  it("is refused at delivery, with no connection, once the operator no longer allows the host", async () => {
    const { customerId, stored } = await ownerWith("direct", webhook());
    alerts.allowedHosts = [];
    try {
      const connections = receiver.connections();
      await enqueueAlerts(ctx, analysis(customerId));
      const delivery = await settled(stored[0]?.destinationId as string);
      expect(delivery.status).toBe("failed");
      expect(delivery.attempts).toBe(1);
      expect(delivery.lastError).toContain("refused, no connection made");
      expect(delivery.lastError).toContain("127.0.0.1 is a loopback address");
      expect(receiver.connections()).toBe(connections);
    } finally {
      alerts.allowedHosts = allowReceiver;
    }
  });

  it("is refused at delivery when its name now resolves inside the network (DNS rebinding)", async () => {
    dns.answers["rebind.example"] = ["93.184.215.14"];
    const url = `https://rebind.example:${receiver.port}/hook`;
    const { customerId, stored } = await ownerWith("direct", webhook(url));
    dns.answers["rebind.example"] = ["127.0.0.1"];
    const connections = receiver.connections();
    await enqueueAlerts(ctx, analysis(customerId));
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery.status).toBe("failed");
    expect(delivery.lastError).toContain(
      "rebind.example resolves to 127.0.0.1, a loopback address",
    );
    expect(receiver.connections()).toBe(connections);
  });

  it("connects only to an address the socket's own lookup checked, whatever an earlier lookup said", async () => {
    // Public for the check at configuration and the check before sending; loopback for the socket.
    let calls = 0;
    const flipping = async (host: string) => {
      calls++;
      const address = calls <= 2 ? "93.184.215.14" : "127.0.0.1";
      return host === "flip.example" ? [{ address, family: 4 as const }] : dns(host);
    };
    alerts.resolve = flipping;
    try {
      const url = `https://flip.example:${receiver.port}/hook`;
      const { customerId, stored } = await ownerWith("direct", webhook(url));
      const connections = receiver.connections();
      await enqueueAlerts(ctx, analysis(customerId));
      const delivery = await settled(stored[0]?.destinationId as string);
      expect(calls).toBeGreaterThanOrEqual(3);
      expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
      expect(delivery.lastError).toContain("flip.example resolves to 127.0.0.1");
      expect(receiver.connections()).toBe(connections);
    } finally {
      alerts.resolve = dns;
    }
  });

  it("is never enqueued twice for the same change, whatever was delivered", async () => {
    const { customerId, stored } = await ownerWith("direct", webhook());
    const input = analysis(customerId, [accessChange(), accessChange()]);
    expect(await enqueueAlerts(ctx, input)).toEqual({ enqueued: 1 });
    expect(await enqueueAlerts(ctx, input)).toEqual({ enqueued: 0 });
    const destinationId = stored[0]?.destinationId as string;
    const delivered = await settled(destinationId);
    expect(await enqueueAlerts(ctx, input)).toEqual({ enqueued: 0 });
    expect(await listAlertDeliveries(ctx.db, destinationId)).toHaveLength(1);
    expect((await getAlertDelivery(ctx.db, delivered.alertId))?.changeIds).toHaveLength(2);
  });
});

describe("waitFor", () => {
  it("fails with what it waited for once its deadline passes", async () => {
    await expect(waitFor(() => false, "nothing", 200)).rejects.toThrow(
      "timed out waiting for nothing",
    );
  });
});
