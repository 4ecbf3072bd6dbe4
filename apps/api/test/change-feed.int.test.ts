import { silentLogger } from "@sightline/logging";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createApp } from "../src/app.ts";
import { connectAppDeps } from "../src/deps.ts";
import { ReadCache } from "../src/read-cache.ts";
import { ADMIN_KEY, awsAccount, createHarness } from "./harness.ts";

/** Two API processes on one database: each caches reads; writes through one reach the other. */
const first = await createHarness();
const secondDeps = await connectAppDeps({
  databaseUrl: inject("databaseUrl"),
  adminKey: ADMIN_KEY,
  logger: silentLogger,
  boss: first.boss,
  masterKey: first.masterKey,
});
afterAll(() => secondDeps.close());
const second = createApp(secondDeps.deps);

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 50 && !accept(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

describe("change feed across processes", () => {
  it("invalidates another process's cached reads when a write commits", async () => {
    const pc = await first.newPartnerCustomer(await first.newPartner());
    const path = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account`;
    const headers = { authorization: `Bearer ${pc.key}` };
    const list = async () => (await (await second.request(path, { headers })).json()) as unknown[];
    expect(await list()).toEqual([]);
    expect(await list()).toEqual([]); // now cached in the second process
    const put = await first.call("PUT", `${path}/123456789012`, {
      key: pc.key,
      body: awsAccount("123456789012", pc.partnerId, pc.partnerCustomerId),
    });
    expect(put.status).toBe(200);
    expect(await eventually(list, (rows) => rows.length === 1)).toHaveLength(1);
  });

  it("revokes a key in another process at once", async () => {
    const partner = await first.newPartner();
    const read = async () =>
      second.request(`/partner/${partner.partnerId}`, {
        headers: { authorization: `Bearer ${partner.key}` },
      });
    expect((await read()).status).toBe(200);
    expect((await first.admin("DELETE", `/admin/api-keys/${partner.keyId}`)).status).toBe(200);
    const after = await eventually(read, (res) => res.status === 401);
    expect(after.status).toBe(401);
  });
});

describe("read-your-writes in one process", () => {
  it("serves a partner's write to its next read without waiting for the change feed", async () => {
    // A cache no feed reaches: only the process's own writes can make its entries stale.
    const cache = new ReadCache();
    cache.resume();
    const app = createApp({ ...first.deps, readCache: cache });
    const { partnerId, key } = await first.newPartner({ oem: true });
    const get = async () => {
      const response = await app.request(`/partner/${partnerId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return ((await response.json()) as { configs: unknown }).configs;
    };
    const put = (configs: object) =>
      app.request(`/partner/${partnerId}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ partnerId, configs }),
      });
    expect((await put({ oemIntegrationEnabled: true })).status).toBe(200);
    expect(await get()).toEqual({ oemIntegrationEnabled: true });
    expect(await get()).toEqual({ oemIntegrationEnabled: true }); // now cached
    expect((await put({})).status).toBe(200);
    expect(await get()).toEqual({});
  });
});
