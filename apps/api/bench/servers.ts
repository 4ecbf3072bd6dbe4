/**
 * Child process of the benchmark: serves the real app and a bare Hono handler side by side, so
 * that the load generator (the parent) does not share an event loop with either.
 */

import { randomBytes } from "node:crypto";
import { serve } from "@hono/node-server";
import {
  insertApiKey,
  setOemGrant,
  upsertMonitoredAccount,
  upsertPartner,
  upsertPartnerCustomer,
} from "@sightline/db";
import { silentLogger } from "@sightline/logging";
import { DEFAULT_QUEUE_SETTINGS, localMasterKey, startJobQueue } from "@sightline/services";
import { Hono } from "hono";
import { createApp } from "../src/app.ts";
import { connectAppDeps } from "../src/deps.ts";
import { generateApiKey, hashKey } from "../src/keys.ts";
import { TokenBuckets } from "../src/rate-limits.ts";
import { createSharedBucketsTable, sharedBuckets } from "./shared-buckets.ts";

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error("BENCH_DATABASE_URL is required");
/**
 * `none` (the default): no rate limit; `process`: the per-process token buckets the API runs
 * with; `postgres`: buckets shared through the database (`shared-buckets.ts`). The limits are
 * far above the load: every request is counted, none refused.
 */
const rateLimits = process.env.BENCH_RATE_LIMITS ?? "none";
if (!["none", "process", "postgres"].includes(rateLimits))
  throw new Error(`BENCH_RATE_LIMITS must be none, process or postgres, not ${rateLimits}`);
const [UNLIMITED_RATE, UNLIMITED_BURST] = [1e9, 1e9];
const running = await connectAppDeps({
  databaseUrl: url,
  adminKey: "unused-operator-key-for-the-benchmark-0000",
  logger: silentLogger,
  // The benchmarked routes enqueue nothing; the queue is there because the app needs one.
  boss: await startJobQueue({
    databaseUrl: url,
    logger: silentLogger,
    queue: DEFAULT_QUEUE_SETTINGS,
    maintenance: false,
  }),
  masterKey: localMasterKey(randomBytes(32)),
  ...(rateLimits === "process" && {
    rateLimits: {
      perKey: new TokenBuckets(UNLIMITED_RATE, UNLIMITED_BURST),
      perClient: new TokenBuckets(UNLIMITED_RATE, UNLIMITED_BURST),
    },
  }),
});
const database = { db: running.deps.db };
const partnerId = "P700001";
const partnerCustomerId = "bench-tenant";
await upsertPartner(database.db, { partnerId });
await setOemGrant(database.db, partnerId, true);
await upsertPartner(database.db, { partnerId, configs: { oemIntegrationEnabled: true } });
await upsertPartnerCustomer(database.db, {
  partnerId,
  partnerCustomerId,
  subscriptionPlanName: "Enterprise",
  deliveryDestinations: [{ methodName: "DeliverToPartner" }],
});
for (let i = 0; i < 1000; i++) {
  const accountId = String(100_000_000_000 + i);
  await upsertMonitoredAccount(database.db, {
    partnerId,
    partnerCustomerId,
    accountId,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: {
      roleArn: `arn:aws:iam::${accountId}:role/Auditor`,
      externalId: "bench-external-id",
    },
  });
}
const { id, key } = generateApiKey();
await insertApiKey(database.db, { id, keyHash: hashKey(key), partnerId });

const app = createApp(running.deps);
let served: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> } = app;
if (rateLimits === "postgres") {
  await createSharedBucketsTable(database.db);
  const take = sharedBuckets(database.db, UNLIMITED_RATE, UNLIMITED_BURST);
  served = {
    async fetch(request, env) {
      if (!(await take("127.0.0.1", request.headers.get("authorization") ?? undefined)))
        return new Response("rate limited", { status: 429 });
      return app.fetch(request, env);
    },
  };
}

// The bare handlers answer the same bodies from memory: no auth, no validation, no database.
const partnerBody = await (
  await app.request(`/partner/${partnerId}`, { headers: { authorization: `Bearer ${key}` } })
).json();
const listBody = (await (
  await app.request(`/partner/${partnerId}/customer/${partnerCustomerId}/account`, {
    headers: { authorization: `Bearer ${key}` },
  })
).json()) as unknown[];
const awsMapJson = await (
  await app.request("/access-capabilities/aws", { headers: { authorization: `Bearer ${key}` } })
).text();
const bare = new Hono();
bare.get("/access-capabilities/aws", (c) =>
  c.body(awsMapJson, 200, { "content-type": "application/json" }),
);
bare.get("/partner/:partnerId", (c) => c.json(partnerBody));
bare.get("/partner/:partnerId/customer/:partnerCustomerId/account", (c) => c.json(listBody));

const ports: number[] = [];
await Promise.all(
  [served, bare].map(
    (server) =>
      new Promise<void>((resolve) => {
        serve({ fetch: server.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
          ports.push(info.port);
          resolve();
        });
      }),
  ),
);
process.send?.({
  appPort: ports[0],
  barePort: ports[1],
  key,
  partnerId,
  partnerCustomerId,
  accounts: listBody.length,
});
