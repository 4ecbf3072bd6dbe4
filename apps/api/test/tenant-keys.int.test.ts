import { insertApiKey, verifyAuditChain } from "@sightline/db";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { generateApiKey, hashKey } from "../src/keys.ts";
import { ADMIN_KEY, createHarness } from "./harness.ts";

const h = await createHarness();
const DAY = 86_400_000;

/** The partner's trail, newest first, as its read key sees it. */
async function trail(partnerId: string, key: string, query = "") {
  const res = await h.call("GET", `/partner/${partnerId}/audit-events${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.json as unknown as {
    events: {
      action: string;
      actor: { keyId: string | null; name: string };
      changes: Record<string, unknown>;
      status: number;
      params: Record<string, string>;
    }[];
    nextCursor: string | null;
  };
}

describe("a partner's own keys", () => {
  it("a keys key creates a read key, which reads and is revoked; the trail shows who did each", async () => {
    const partner = await h.newPartner();
    const admin = await h.call("POST", `/partner/${partner.partnerId}/api-keys`, {
      key: partner.key,
      body: { name: "dashboard", scopes: ["read"] },
    });
    expect(admin.status, admin.text).toBe(201);
    const read = admin.json as unknown as { id: string; key: string; scopes: string[] };
    expect(read.scopes).toEqual(["read"]);
    expect((await h.call("GET", `/partner/${partner.partnerId}`, { key: read.key })).status).toBe(
      200,
    );
    const listed = await h.call("GET", `/partner/${partner.partnerId}/api-keys`, {
      key: partner.key,
    });
    expect(listed.text).not.toContain(read.key);
    expect((listed.json as { id: string }[]).map((k) => k.id)).toContain(read.id);

    const revoked = await h.call("DELETE", `/partner/${partner.partnerId}/api-keys/${read.id}`, {
      key: partner.key,
    });
    expect(revoked.status, revoked.text).toBe(200);
    const refused = await h.call("GET", `/partner/${partner.partnerId}`, { key: read.key });
    expect(refused.status).toBe(401);
    expect(refused.json.message).toMatch(/revoked/);

    const { events } = await trail(partner.partnerId, partner.key);
    const mine = events.filter((e) => e.action.includes("/partner/{partnerId}/api-keys"));
    expect(mine.map((e) => e.action)).toEqual([
      "DELETE /partner/{partnerId}/api-keys/{id}",
      "POST /partner/{partnerId}/api-keys",
    ]);
    for (const e of mine)
      expect(e.actor).toEqual({ keyId: partner.keyId, name: `key ${partner.keyId}` });
    expect(mine[1]?.changes).toMatchObject({
      keyId: { old: null, new: read.id },
      scopes: { old: null, new: ["read"] },
      key: "changed",
    });
    expect(JSON.stringify(events)).not.toContain(read.key);
    // The read key's use changed nothing, and wrote nothing.
    expect(events.filter((e) => e.actor.keyId === read.id)).toEqual([]);
    // Its row stays, marked revoked.
    const after = await h.call("GET", `/partner/${partner.partnerId}/api-keys`, {
      key: partner.key,
    });
    expect((after.json as { id: string }[]).find((k) => k.id === read.id)).toMatchObject({
      revokedAt: expect.any(String),
    });
  });

  it("a key cannot make a key with a scope or an expiry beyond its own", async () => {
    const partner = await h.newPartner();
    const in10 = new Date(Date.now() + 10 * DAY).toISOString();
    const limited = await h.admin("POST", "/admin/api-keys", {
      partnerId: partner.partnerId,
      scopes: ["keys", "read"],
      expiresAt: in10,
    });
    expect(limited.status, limited.text).toBe(201);
    const key = limited.json.key as string;
    const path = `/partner/${partner.partnerId}/api-keys`;
    for (const body of [
      { name: "more", scopes: ["configure"], expiresAt: in10 },
      { name: "forever", scopes: ["read"] },
      { name: "later", scopes: ["read"], expiresAt: new Date(Date.now() + 20 * DAY).toISOString() },
    ]) {
      const res = await h.call("POST", path, { key, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.json.message).toMatch(/scopes|expiresAt/);
    }
    const within = await h.call("POST", path, {
      key,
      body: { name: "ok", scopes: ["read"], expiresAt: in10 },
    });
    expect(within.status, within.text).toBe(201);
  });

  it("an expired key gets 401 saying it expired", async () => {
    const partner = await h.newPartner();
    const { id, key } = generateApiKey();
    await insertApiKey(h.deps.db, {
      id,
      keyHash: hashKey(key),
      partnerId: partner.partnerId,
      expiresAt: new Date(Date.now() - 1000),
    });
    const res = await h.call("GET", `/partner/${partner.partnerId}`, { key });
    expect(res.status).toBe(401);
    expect(res.json.message).toMatch(/expired/);
  });

  it("SIGHTLINE_KEY_MAX_DAYS makes expiresAt required and bounded (400 naming the rule)", async () => {
    const app = createApp({ ...h.deps, keyMaxDays: 30 });
    const create = (body: object) =>
      app.request("/admin/api-keys", {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ partnerId: "P000123", ...body }),
      });
    for (const body of [{}, { expiresAt: new Date(Date.now() + 31 * DAY).toISOString() }]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { issues: { path: string; message: string }[] };
      expect(json.issues[0]).toMatchObject({ path: "expiresAt" });
      expect(json.issues[0]?.message).toMatch(/SIGHTLINE_KEY_MAX_DAYS/);
    }
    expect(
      (await create({ expiresAt: new Date(Date.now() + 29 * DAY).toISOString() })).status,
    ).toBe(201);
  });
});

describe("the audit trail", () => {
  it("shows a delivery bucket's change, old and new, and the key that made it; the chain verifies", async () => {
    const partner = await h.newPartner();
    const config = (bucketName: string) => ({
      partnerId: partner.partnerId,
      awsEncryptionKeyId:
        "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      deliveryDestinations: { DeliverToS3: { bucketName } },
    });
    for (const bucket of ["inbox-tuesday", "inbox-wednesday"])
      expect(
        (
          await h.call("PUT", `/partner/${partner.partnerId}`, {
            key: partner.key,
            body: config(bucket),
          })
        ).status,
      ).toBe(200);
    const { events } = await trail(partner.partnerId, partner.key, "?limit=1");
    expect(events[0]).toMatchObject({
      action: "PUT /partner/{partnerId}",
      actor: { keyId: partner.keyId },
      changes: {
        "deliveryDestinations.DeliverToS3.bucketName": {
          old: "inbox-tuesday",
          new: "inbox-wednesday",
        },
      },
    });
    expect(await verifyAuditChain(h.deps.db, partner.partnerId)).toMatchObject({ problems: [] });
  });

  it("pages newest first with cursor, filters by keyId and since, and exports JSON Lines", async () => {
    const partner = await h.newPartner();
    for (let n = 0; n < 5; n++) {
      const body = {
        partnerId: partner.partnerId,
        awsEncryptionKeyId:
          "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        deliveryDestinations: { DeliverToS3: { bucketName: `inbox-${n}` } },
      };
      const put = await h.call("PUT", `/partner/${partner.partnerId}`, { key: partner.key, body });
      expect(put.status, put.text).toBe(200);
    }
    const first = await trail(partner.partnerId, partner.key, "?limit=2");
    expect(first.events).toHaveLength(2);
    const second = await trail(
      partner.partnerId,
      partner.key,
      `?limit=2&cursor=${first.nextCursor}`,
    );
    expect(
      Number(
        second.events[0]?.params &&
          (second as unknown as { events: { id: string }[] }).events[0]?.id,
      ),
    ).toBeLessThan(Number((first as unknown as { events: { id: string }[] }).events[1]?.id));
    const byOperator = await trail(partner.partnerId, partner.key, "?keyId=operator");
    expect(byOperator.events.every((e) => e.actor.keyId === null)).toBe(true);
    const future = await trail(
      partner.partnerId,
      partner.key,
      `?since=${new Date(Date.now() + DAY).toISOString()}`,
    );
    expect(future.events).toEqual([]);
    const jsonl = await h.call("GET", `/partner/${partner.partnerId}/audit-events?format=jsonl`, {
      key: partner.key,
    });
    expect(jsonl.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    const lines = jsonl.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { action: string });
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const bad = await h.call("GET", `/partner/${partner.partnerId}/audit-events?since=yesterday`, {
      key: partner.key,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.issues).toEqual([expect.objectContaining({ path: "since" })]);
  });

  it("delivery verification is audited when it issues a token, its value never shown", async () => {
    const partner = await h.newPartner();
    const body = {
      partnerId: partner.partnerId,
      awsEncryptionKeyId:
        "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      deliveryDestinations: { DeliverToS3: { bucketName: "inbox-to-prove" } },
    };
    expect(
      (await h.call("PUT", `/partner/${partner.partnerId}`, { key: partner.key, body })).status,
    ).toBe(200);
    const path = `/partner/${partner.partnerId}/delivery-verification`;
    const issued = await h.call("GET", path, { key: partner.key });
    expect(issued.status).toBe(200);
    const again = await h.call("GET", path, { key: partner.key });
    expect(again.json.token).toBe(issued.json.token);
    const { events } = await trail(partner.partnerId, partner.key);
    const verifications = events.filter(
      (e) => e.action === `GET /partner/{partnerId}/delivery-verification`,
    );
    expect(verifications).toHaveLength(1);
    expect(verifications[0]?.changes).toMatchObject({
      token: "changed",
      bucketName: { old: null, new: "inbox-to-prove" },
    });
    expect(JSON.stringify(events)).not.toContain(String(issued.json.token));
  });

  it("the operator reads every tenant's trail, or one's", async () => {
    const partner = await h.newPartner();
    const res = await h.admin("GET", `/admin/audit-events?tenant=${partner.partnerId}`);
    expect(res.status).toBe(200);
    expect(
      (res.json as unknown as { events: { tenant: string }[] }).events.every(
        (e) => e.tenant === partner.partnerId,
      ),
    ).toBe(true);
    expect((res.json as unknown as { events: unknown[] }).events.length).toBeGreaterThan(0);
  });
});
