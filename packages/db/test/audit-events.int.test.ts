import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  appendAuditEvent,
  createDb,
  listAuditEvents,
  pruneAuditEvents,
  rawQuery,
  verifyAuditChain,
} from "../src/index.ts";
import { createTestDatabase } from "../src/testing.ts";

const database = await createTestDatabase(inject("databaseUrl"));
const handle = createDb(database.url, { maxConnections: 4 });
afterAll(async () => {
  await handle.close();
  await database.dispose();
});
const db = handle.db;

const event = (tenant: string, n: number, at = new Date()) => ({
  tenant,
  at,
  keyId: "key_AAAAAAAAAAAAAAAA",
  actorName: "ci",
  action: "PUT /partner/{partnerId}",
  route: "putPartner",
  params: { partnerId: tenant },
  status: 200,
  requestId: `req-${n}`,
  changes: { "deliveryDestinations.DeliverToS3.bucketName": { old: `b${n}`, new: `b${n + 1}` } },
});

const newTenant = () => `P${randomBytes(3).readUIntBE(0, 3) % 1_000_000}`.padEnd(7, "0");

describe("audit chain", () => {
  it("links concurrent appends of a tenant one after the other, and verifies", async () => {
    const tenant = newTenant();
    await Promise.all(Array.from({ length: 12 }, (_, n) => appendAuditEvent(db, event(tenant, n))));
    const { events } = { events: await listAuditEvents(db, { tenant, limit: 100 }) };
    expect(events).toHaveLength(12);
    const oldestFirst = [...events].reverse();
    for (let i = 1; i < oldestFirst.length; i++)
      expect(oldestFirst[i]?.previousHash).toBe(oldestFirst[i - 1]?.hash);
    expect(await verifyAuditChain(db, tenant)).toEqual({ tenant, events: 12, problems: [] });
  });

  it("fails verification after a row is edited by hand, naming it", async () => {
    const tenant = newTenant();
    for (let n = 0; n < 3; n++) await appendAuditEvent(db, event(tenant, n));
    const [newest] = await listAuditEvents(db, { tenant, limit: 1 });
    await db.execute(
      rawQuery(
        `update audit_events set changes = jsonb_set(changes, '{deliveryDestinations.DeliverToS3.bucketName,new}', '"evil"') where id = $1`,
        [newest?.id],
      ),
    );
    const verdict = await verifyAuditChain(db, tenant);
    expect(verdict.problems).toEqual([{ id: newest?.id, reason: expect.stringMatching(/edited/) }]);
  });

  it("prunes old events, records it in the chain, and the chain still verifies", async () => {
    const tenant = newTenant();
    const old = new Date(Date.now() - 500 * 86_400_000);
    for (let n = 0; n < 3; n++) await appendAuditEvent(db, event(tenant, n, old));
    await appendAuditEvent(db, event(tenant, 3));
    const cutoff = new Date(Date.now() - 400 * 86_400_000);
    expect(await pruneAuditEvents(db, cutoff, new Date())).toBeGreaterThanOrEqual(3);
    const events = await listAuditEvents(db, { tenant, limit: 10 });
    expect(events.map((e) => e.action)).toEqual(["audit.pruned", "PUT /partner/{partnerId}"]);
    expect(events[0]?.changes.prunedEvents).toEqual({ old: null, new: 3 });
    expect(await verifyAuditChain(db, tenant)).toMatchObject({ events: 2, problems: [] });
  });
});
