import { afterAll, expect, inject, it } from "vitest";
import { createApp } from "../src/app.ts";
import { connectAppDeps } from "../src/deps.ts";
import { createLogger } from "../src/logger.ts";
import { ADMIN_KEY, awsAccount } from "./harness.ts";

const lines: string[] = [];
const running = await connectAppDeps({
  databaseUrl: inject("databaseUrl"),
  adminKey: ADMIN_KEY,
  logger: createLogger({ level: "debug", write: (line) => lines.push(line) }),
});
afterAll(() => running.close());
const app = createApp(running.deps);

async function call(method: string, path: string, key: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body) headers["content-type"] = "application/json";
  const res = await app.request(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, string> };
}

it("logs one JSON line per request with its request id, and never a key or an external ID", async () => {
  const partnerId = "P918273";
  const created = await call("POST", "/admin/api-keys", ADMIN_KEY, { partnerId });
  const key = created.json.key as string;
  await call("PUT", `/partner/${partnerId}`, key, { partnerId });
  await call("PUT", `/partner/${partnerId}/customer/log-tenant`, key, {
    partnerId,
    partnerCustomerId: "log-tenant",
    subscriptionPlanName: "Starter",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  const secretExternalId = "very-secret-external-id-4711";
  const account = {
    ...awsAccount("123456789012", partnerId, "log-tenant"),
    auditorAuthConfig: {
      roleArn: "arn:aws:iam::123456789012:role/A",
      externalId: secretExternalId,
    },
  };
  expect(
    (
      await call(
        "PUT",
        `/partner/${partnerId}/customer/log-tenant/account/123456789012`,
        key,
        account,
      )
    ).status,
  ).toBe(200);
  await call("GET", `/partner/${partnerId}`, `${key}x`);

  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = records.filter((r) => r.msg === "request");
  expect(requests).toHaveLength(5);
  for (const r of requests) expect(r.requestId).toEqual(expect.any(String));
  expect(requests.map((r) => r.status)).toEqual([201, 200, 200, 200, 401]);
  const all = lines.join("\n");
  for (const secret of [ADMIN_KEY, key, secretExternalId]) expect(all).not.toContain(secret);
});
